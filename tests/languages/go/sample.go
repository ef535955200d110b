// Package widget renders boxes for the dashboard.
//
// ZZHIDDEN_package_doc: Render and DefaultWidth are named in this comment only.
package widget
//      ^ import

import (
	"crypto/tls"
	// <- import string
	"fmt"
	str "strings"
	// <- import
	"testing"
)

// ZZHIDDEN_const_comment: Small and Large are the sizes a widget can have.
const (
	Small = iota
	// <- def constant scope=
	Large
	// <- def constant
	DefaultWidth = 0x7FFF_FFFF
	//             ^ number
)

var (
	labelPrefix = "w-"
	// <- def variable
	timeout     = 1e3
	//            ^ number
)

// Widget is a box. ZZHIDDEN_type_comment.
type Widget struct {
//   ^ def type
	Name  string `json:"name"`
	// <- def field owner=Widget scope=Widget
	//           ^ string
	width int
	// <- def field owner=Widget
	tls   *tls.Config
	//         ^ member-use
}

// Renderer is anything that renders.
type Renderer interface {
	Render(prefix string) string
	// <- def method owner=Renderer
}

func newWidget(name string) *Widget {
//   ^ def function
//             ^ def parameter scope=newWidget
	w := &Widget{Name: name, width: 3}
	// <- local variable scope=newWidget
	//           ^ use -- a field of a type this file declares
	conf := &tls.Config{InsecureSkipVerify: true}
	//                  ^ member-use -- a field of a foreign type
	w.tls = conf
	  // <- member-use -- not the receiver: newWidget has none
	return w
}

// Render draws the widget. ZZHIDDEN_method_comment.
func (w *Widget) Render(prefix string) string {
//    ^ def parameter scope=Widget.Render
//               ^ def method owner=Widget scope=Widget
//                      ^ def parameter scope=Widget.Render
	padded := str.Repeat(" ", w.width)
	// <- local variable
	//        ^ use
	//            ^ member-use
	//                          ^ use
	w.Name = fmt.Sprintf("%s%s: %dpx", prefix, labelPrefix, w.width)
	  // <- def field owner=Widget scope=Widget.Render -- the receiver's field
	//                   ^ string "parts=: |px"
	other.Name = padded
	//    ^ member-use
	for i, part := range []string{"a", "b"} {
	//  ^ local variable
	//     ^ local variable
		_ = i + len(part)
	}
	return w.Name
}

func helperTable() map[string]int {
//   ^ def function
	var total = 0
	//  ^ local variable
	return map[string]int{"small": 1, "total": total}
}

func TestRender(t *testing.T) {
//   ^ def function test=TestRender
//              ^ def parameter scope=TestRender
	cases := []struct {
		name string
		// <- local field
		want string
	}{
		{name: "small box", want: "w-small: 3px"},
		 // <- use -- a field of the table's own struct
		//     ^ string !asserting
		//                        ^ string asserting
	}
	for _, tc := range cases {
		t.Run("small box", func(t *testing.T) {
		//    ^ string test="TestRender/small box"
		//                      ^ local parameter -- a function literal's parameter
			got := newWidget(tc.name).Render("")
			// <- local variable test="TestRender/small box"
			if got != tc.want {
				t.Errorf("Render() = %q, want %q", got, tc.want)
				//       ^ string asserting "parts=Render() = |, want "
				//                                 ^ asserting use
				  // <- member-use !asserting
			}
		})
	}
	if n := helperTable()["small"]; n != 1 {
	//      ^ !asserting use
		t.Fatalf("small = %d", n)
		//                     ^ asserting use
	}
	_ = timeout
}
