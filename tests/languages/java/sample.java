/*
 * Widget rendering for the dashboard.
 * ZZHIDDEN_license_comment: Widget and DEFAULT_WIDTH are named in this comment only.
 */
package com.acme.dashboard;
//      ^ import
//               ^ import

import static org.junit.jupiter.api.Assertions.assertEquals;
//                                             ^ import
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A box on the dashboard. ZZHIDDEN_javadoc mentions render. */
public class Widget {
//           ^ def class scope=
    public static final int DEFAULT_WIDTH = 0x7FFF_FFFF;
    //                      ^ def constant owner=Widget
    //                                      ^ number
    private static final String LABEL_PREFIX = "w-";
    private final String name;
    //                   ^ def field owner=Widget scope=Widget
    private int width;

    enum Size { SMALL, LARGE }
    //   ^ def type owner=Widget
    //          ^ def enum-member owner=Size scope=Widget.Size

    public Widget(String name, int width) {
    //                   ^ def parameter scope=Widget.Widget
        this.name = name;
        //   ^ def field owner=Widget scope=Widget.Widget
        //          ^ use
        this.width = width;
        Registry.latest = this;
        //       ^ member-use
    }

    public String render() {
    //            ^ def method owner=Widget scope=Widget
        String padded = String.format("%s%s: %dpx", LABEL_PREFIX, name, width);
        //     ^ local variable scope=Widget.render
        //                            ^ string "parts=: |px"
        //                     ^ member-use
        // ZZHIDDEN_line_comment: parts holds each trimmed piece.
        List<String> parts = new ArrayList<>(); /* ZZHIDDEN_block_comment */
        for (String part : padded.split(",")) {
        //          ^ local variable
            parts.add(part.trim());
            //    ^ member-use
        }
        return padded + parts.size();
    }

    public static List<String> renderAll(List<Widget> widgets, String sep) {
    //                         ^ def method
    //                                                ^ def parameter scope=Widget.renderAll
        List<String> out = new ArrayList<>();
        //           ^ local variable
        widgets.forEach(w -> out.add(w.render()));
        //              ^ local parameter -- a lambda's parameter
        //                             ^ use -- a method this file declares
        try {
            return out;
        } catch (IllegalStateException err) {
        //                             ^ local variable
            throw new IllegalArgumentException("cannot render: " + sep, err);
        }
    }

    static Widget makeWidget(String name) {
    //            ^ def method
        return new Widget(name, name.length() + 3);
        //                           ^ member-use
        //                                      ^ number
    }

    static int helperTable() {
        int total = 0;
        //  ^ local variable
        char unit = 'u';
        //          ^ string
        return total + Size.SMALL.ordinal();
        //                  ^ use -- a member of an enum this file declares
    }
}

class WidgetTest {
    private Widget widget;
    //             ^ def field owner=WidgetTest

    @Test
    void rendersLabel() {
    //   ^ def method test=WidgetTest.rendersLabel
        Widget widget = Widget.makeWidget("box");
        //     ^ local variable test=WidgetTest.rendersLabel
        //                                ^ string !asserting
        assertEquals("w-box: 3px", widget.render());
        //           ^ asserting string
        //                         ^ asserting use
        // <- !asserting use
        assertEquals(0, Widget.helperTable());
        //           ^ asserting number
    }

    @Test
    void rejectsBadWidth() {
        int width = -1;
        //           ^ !asserting number
        assertThrows(IllegalArgumentException.class, () -> Widget.makeWidget(null));
        assert width < 0 : "width must be negative";
        //                 ^ asserting string
    }
}
