//! Widget rendering for the dashboard.
//!
//! ZZHIDDEN_crate_doc: Widget and DEFAULT_WIDTH are named in this comment only.

use std::collections::HashMap;
//  ^ import
//                    ^ import
use std::fmt::{self, Write as _};
use serde::Serialize as Ser;
//                      ^ local binding -- an alias the importer chose

pub mod render;
//      ^ import -- a module's name is a file path's

/// The widest a widget may be. ZZHIDDEN_doc_comment
pub const DEFAULT_WIDTH: u32 = 0x7FFF_FFFF;
//        ^ def constant scope=
//                             ^ number
static mut RENDERED: usize = 0;
//         ^ def variable

/// A box on the dashboard.
#[derive(Debug, Clone, Ser)]
pub struct Widget {
//         ^ def class
    pub name: String,
    //  ^ def field owner=Widget scope=Widget
    width: u32,
    labels: HashMap<String, String>,
}

#[doc = "ZZHIDDEN_doc_attribute: Size names what a widget can have"]
pub enum Size {
//       ^ def type
    Small,
    // <- def enum-member owner=Size scope=Size
    Large { rows: u32 },
    //      ^ def field owner=Size
}

pub trait Render {
    fn render(&self, prefix: &str) -> String;
    // ^ def method owner=Render
    //               ^ def parameter scope=Render.render
}

impl Widget {
    pub const MAX_LABELS: usize = 8;
    //        ^ def constant owner=Widget scope=Widget

    pub fn new(name: &str, width: u32) -> Self {
    //     ^ def method owner=Widget scope=Widget
    //                     ^ def parameter scope=Widget.new
        let labels = HashMap::with_capacity(Self::MAX_LABELS);
        //  ^ local variable scope=Widget.new
        //                    ^ member-use -- a foreign type's function
        //                                        ^ use -- the type's own constant
        Widget { name: name.to_string(), width, labels }
        //       ^ use -- a field of a type this file declares
        //                  ^ member-use
    }

    fn pad(&mut self, extra: u32) {
        self.width += extra;
        //   ^ def field owner=Widget scope=Widget.pad -- the receiver's field
        other.width = extra;
        //    ^ member-use -- not the receiver
        let conf = tls::Config { verify: false };
        //                       ^ member-use -- a field of a foreign type
        const STEP: u32 = 2;
        //    ^ local constant -- a constant in a function body
        let _ = (conf, STEP);
    }
}

impl Render for Widget {
    fn render(&self, prefix: &str) -> String {
    // ^ def method owner=Widget
        let padded = format!("{}{}: {:>3}px", prefix, self.name, self.width);
        //                   ^ string "parts=: |px"
        //                                                 ^ member-use -- a dot in a macro's flat tokens
        // ZZHIDDEN_line_comment: parts holds each trimmed piece.
        let mut parts: Vec<String> = Vec::new(); /* ZZHIDDEN_block_comment */
        //      ^ local variable
        for (i, part) in padded.split(',').enumerate() {
        //   ^ local variable
        //      ^ local variable
        //                      ^ member-use
        //                            ^ string
            parts.push(format!("{i}={}", part.trim()));
        }
        let sized = parts.iter().map(|p| p.len()).sum::<usize>();
        //                            ^ local parameter -- a closure's parameter
        let size = Size::Large { rows: 2 };
        //                       ^ use -- a variant's field, declared here
        match size {
            Size::Large { rows } => padded + &rows.to_string() + &sized.to_string(),
            //            ^ local variable
            Size::Small => padded,
            //    ^ use -- a variant of an enum this file declares
        }
    }
}

pub fn make_widget(name: &str) -> Widget {
//     ^ def function
    Widget::new(name, name.len() as u32 + 3)
    //                                    ^ number
}

fn helper_table() -> u32 {
    let unit = 'u';
    //         ^ string
    let total = 1.5_f64;
    //          ^ number
    (total as u32) + u32::from(unit == 'u')
}

#[cfg(test)]
mod tests {
    use super::{helper_table, make_widget};
    //                        ^ import

    struct Case {
        name: &'static str,
        // <- def field owner=Case -- a test table's own type
        want: &'static str,
    }

    #[test]
    fn renders_label() {
    // ^ def function test=tests::renders_label
        let widget = make_widget("box");
        //  ^ local variable test=tests::renders_label
        //           ^ !asserting use
        //                       ^ string !asserting
        assert_eq!(widget.render("w-"), "w-box: 3px");
        //                              ^ asserting string
        //         ^ asserting use
        //                ^ asserting member-use -- a method call in the macro's tokens
        for case in [Case { name: "box", want: "w-box: 3px" }] {
            //              ^ use -- a field of the table's own struct
            //                    ^ string !asserting
            //                                 ^ string asserting -- a `want` field
            assert_eq!(make_widget(case.name).render(""), case.want);
        }
        let expected = format!("{}-{}", "w", 0);
        assert_eq!(helper_table(), 2, "{}", expected);
        //                         ^ asserting number
    }

    #[test]
    #[should_panic(expected = "cannot render")]
    //                        ^ asserting string
    fn rejects_bad_width() {
        let width = -1;
        //           ^ !asserting number
        if width < 0 {
            panic!("cannot render");
        }
    }
}
