/**
 * Widget rendering for the dashboard.
 * ZZHIDDEN_module_doc: renderAll and DEFAULT_WIDTH are named in this comment only.
 */
import { readFileSync as readFile } from "node:fs";
//       ^ import
//                       ^ local binding
//                                       ^ import string
import path from "path";
const EventEmitter = require("events");
//    ^ def constant
//                   ^ use
//                           ^ import string

// ZZHIDDEN_comment: Size lists the sizes a widget can have.
export const Size = Object.freeze({ SMALL: 1, LARGE: 2 });
//           ^ def constant scope=
//                                  ^ use key
export const DEFAULT_WIDTH = 0x7fff_ffff;
//                           ^ number
let labelPrefix = "w-";
//  ^ def variable

export class Widget extends EventEmitter {
//           ^ def class
  #secret = 1;
  // <- def field owner=Widget
  static count = 0;
  //     ^ def field owner=Widget scope=Widget

  constructor(name, { width = 3 } = {}) {
  // <- def method owner=Widget
  //          ^ def parameter scope=Widget.constructor
  //                  ^ def parameter
    super();
    this.name = name;
    //   ^ def field owner=Widget scope=Widget.constructor
    this.width = width;
    registry.latest = this;
    //       ^ member-use
  }

  render() { // ZZHIDDEN_trailing_comment: render uses padEnd
  // <- def method owner=Widget
    const padded = this.name.padEnd(DEFAULT_WIDTH % 40);
    //    ^ local constant scope=Widget.render
    //                  ^ use
    //                       ^ member-use
    for (const part of padded.split(",")) {
    //         ^ local variable
      this.emit("part", part);
    }
    return `${labelPrefix}${padded}: ${this.width}px`;
    //     ^ string "parts=: |px"
    //        ^ use
  }
}

export function renderAll(widgets, sep = "\n") {
//              ^ def function
//                        ^ def parameter scope=renderAll
//                                 ^ def parameter
  const out = widgets.map((w) => w.render());
  //    ^ local constant
  //                       ^ local parameter -- an arrow function's parameter
  //                               ^ use -- a method this file declares
  //                  ^ member-use
  try {
    return out.join(/* ZZHIDDEN_inline */ sep);
  } catch (err) {
  //       ^ local variable
    throw new Error(`cannot render: ${err}`);
  }
}

export function makeWidget(name) {
//              ^ def function
  return new Widget(name, { width: name.length });
  //                        ^ use key
}

function helperTable() {
  const lookup = { small: 1, "large": 2 };
  //               ^ use key
  //                         ^ string use
  if (lookup.small) {
    let total = 0;
    //  ^ local variable
    return total;
  }
  return readFile(path.join("a", "b"));
  //     ^ use -- the imported name, used
}

describe("Widget", () => {
  it("renders a label", () => {
  // ^ string test="Widget renders a label"
    const widget = makeWidget("box");
    //    ^ local constant test="Widget renders a label"
    //                        ^ string !asserting
    expect(widget.render()).toBe("w-box: 0px");
    //     ^ asserting use
    //                           ^ asserting string
    //                      ^ member-use asserting
    expect(helperTable()).not.toEqual({ want: 3 });
    //                                        ^ asserting number
  });

  it("rejects a bad width", () => {
    const table = [{ input: -1, expected: "bad width" }];
    //                                    ^ asserting string -- an expected field of a test table
    //                       ^ !asserting number
    assert.throws(() => makeWidget(table[0].input));
  });
});
