/**
 * Widget rendering for the dashboard.
 * ZZHIDDEN_module_doc: makeWidget and DEFAULT_WIDTH are named in this comment only.
 */
import type { Options } from "./options";
//            ^ import
//                           ^ import string
import * as path from "node:path";
//          ^ local binding

// ZZHIDDEN_comment: Size lists the sizes a widget can have.
export enum Size {
//          ^ def type
  Small = 1,
  // <- def enum-member owner=Size scope=Size
  Large = 0x7fff_ffff,
  //      ^ number
}

export const DEFAULT_WIDTH: number = 40;
//           ^ def constant scope=
const labelPrefix = "w-";

export interface Props {
//               ^ def type
  title: string;
  // <- def field owner=Props
  onRender?(label: string): void;
  // <- def method owner=Props
}

export type Align = "left" | "right";
//          ^ def type
//                  ^ string

export class Widget<T> implements Props {
//           ^ def class
//                  ^ local type
  private width: number = 0;
  //      ^ def field owner=Widget scope=Widget
  title: string;

  constructor(public name: string, opts?: Options) {
  // <- def method owner=Widget
  //                 ^ def parameter scope=Widget.constructor
  //                               ^ def parameter
    this.title = name;
    //   ^ def field owner=Widget scope=Widget.constructor
    this.width = opts?.width ?? 3;
    //                 ^ use -- matched by name: this file declares a member width
    registry.latest = this;
    //       ^ member-use
  }

  render(align: Align = "left"): string { // ZZHIDDEN_trailing: align
  // <- def method owner=Widget
  //     ^ def parameter scope=Widget.render
  //            ^ use
    const padded: string = this.name.padEnd(DEFAULT_WIDTH);
    //    ^ local constant
    //                          ^ use
    //                               ^ member-use
    for (let i = 0; i < 2; i++) {
    //       ^ local variable
      path.join(padded, String(i));
      // <- use -- the imported name, used
    }
    return `${labelPrefix}${padded}: ${this.width}px`;
    //     ^ string "parts=: |px"
  }
}

export function makeWidget(name: string): Widget<string> {
//              ^ def function
//                         ^ def parameter scope=makeWidget
  const options: Options = { width: name.length };
  //    ^ local constant
  //                         ^ use key
  return new Widget<string>(name, /* ZZHIDDEN_inline */ options);
}

function helperTable(): Record<string, number> {
  return { small: 1, "large": 2 };
  //       ^ use key
  //                 ^ string use
}

describe("Widget", () => {
  it("renders", () => {
  // ^ string test="Widget renders"
    const widget = makeWidget("box");
    //    ^ local constant test="Widget renders"
    //                        ^ string !asserting
    expect(widget.render()).toBe("w-box: 0px");
    //                           ^ asserting string
    //     ^ asserting use
    expect(helperTable()).toEqual({ small: 1, large: 2 });
    //                                               ^ asserting number
    //     ^ asserting use
  });
});
