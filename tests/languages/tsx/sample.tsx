/**
 * A badge component. ZZHIDDEN_module_doc: Badge and LABELS are named here only.
 */
import React, { useState } from "react";
//     ^ local binding
//              ^ import
//                              ^ import string
import { Tooltip } from "@acme/ui";

// ZZHIDDEN_comment: LABELS, named in a comment, yields no token here.
export const LABELS = { ok: "Ready", fail: "Broken" };
//           ^ def constant
//                      ^ use key
//                          ^ string

export interface BadgeProps {
  label: string;
  // <- def field owner=BadgeProps
  count?: number;
}

export function Badge({ label, count = 0 }: BadgeProps) {
//              ^ def function
//                      ^ def parameter scope=Badge
//                             ^ def parameter
  const [open, setOpen] = useState(/* ZZHIDDEN_inline */ false);
  //     ^ local variable
  //           ^ local variable
  const tip = `${label} (${count})`;
  //          ^ string "parts= (|)"
  const badge = <span className="badge" onClick={() => setOpen(!open)}>{label}: {count}</span>;
  //                  ^ member-use -- an HTML element's attribute
  //                            ^ string
  //                                    ^ member-use
  return <Tooltip text={tip}>{badge} items</Tooltip>;
  //      ^ use -- the imported name, used
  //              ^ member-use -- a prop of an imported component
  //                                 ^ string -- text between tags
}

export class Counter extends React.Component<BadgeProps> {
//           ^ def class
//                                 ^ member-use
  clicks = 0; // ZZHIDDEN_trailing: clicks counts
  // <- def field owner=Counter scope=Counter
  handleClick = () => {
    this.lastLabel = this.props.label;
    //   ^ def field owner=Counter -- set on the receiver, in an arrow inside the class
    //                    ^ use
    document.title = `clicked ${this.clicks}`;
    //       ^ member-use
  };
}

export function renderBadge(label: string): JSX.Element {
//              ^ def function
  return <Badge label={label} count={7500} />;
  //            ^ use -- a prop of a component this file declares
  //                                 ^ number
}

describe("Badge", () => {
//       ^ string !asserting
  test("shows the label", () => {
    const view = renderBadge(LABELS.ok);
    //    ^ local constant test="Badge shows the label"
    //                              ^ use
    expect(view.props.label).toBe("Ready");
    //                            ^ asserting string
    //          ^ member-use asserting
    expect(screen.getByText("Ready")).toBeTruthy();
  });
});
