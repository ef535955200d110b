// Widget rendering for the dashboard.
//
// ZZHIDDEN_license_comment: Widget and kDefaultWidth are named in this comment only.
#include <gtest/gtest.h>

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "acme/widget.h"
//       ^ import string

namespace acme {
//        ^ import

using std::string;
//         ^ import

#define LABEL_PREFIX "w-"
//      ^ def constant
//                   ^ string

constexpr int kDefaultWidth = 0x7FFF'FFFF;
//            ^ def constant scope=
//                            ^ number
double timeout_seconds = 1e3;
//     ^ def variable
//                       ^ number

/* A box on the dashboard. ZZHIDDEN_block_comment mentions render. */
class Widget {
//    ^ def class scope=
 public:
  enum class Size { kSmall, kLarge };
  //         ^ def type owner=Widget
  //                ^ def enum-member owner=Size scope=Widget.Size

  Widget(string name, int width) : name_(std::move(name)), width_(width) {}
  // <- use -- a constructor is named by its class
  //            ^ def parameter scope=Widget.Widget
  //                                          ^ member-use -- a name of the std namespace

  string render(const string& prefix) const;
  //     ^ def method owner=Widget scope=Widget
  //                          ^ local parameter -- a declaration's: no body names it
  int width() const { return this->width_; }
  //  ^ def method owner=Widget
  //                               ^ use -- the running object's member

  static constexpr int kMaxWidth = 120;
  //                   ^ def constant owner=Widget

 private:
  string name_;
  //     ^ def field owner=Widget scope=Widget
  int width_ = 3;
};

struct Options {
  int timeout = 30;
  //  ^ def field owner=Options
  string region;
};

string Widget::render(const string& prefix) const {
//             ^ def method owner=Widget scope=Widget
//                                  ^ def parameter scope=Widget.render
  auto padded = fmt::format("{}{}: {}px", prefix, name_, width_);
  //   ^ local variable scope=Widget.render
  //                 ^ member-use
  //                        ^ string "parts=: |px"
  // ZZHIDDEN_line_comment: parts holds each trimmed piece.
  std::vector<string> parts; /* ZZHIDDEN_inline_comment */
  for (const auto& part : split(padded, ',')) {
  //               ^ local variable
  //                                    ^ string
    parts.push_back(trim(part));
    //    ^ member-use
  }
  return padded + std::to_string(parts.size());
}

Options make_options(const string& region) {
//      ^ def function
  Options opts{.timeout = 5};
  //            ^ use -- a member of a type this file declares
  opts.region = region;
  //   ^ member-use -- set on a local, not on the running object
  std::tm stamp{};
  stamp.tm_year = 124;
  //    ^ member-use
  ::timespec wait{.tv_sec = 1};
  //               ^ member-use -- a member of a foreign type
  return opts;
}

std::vector<string> render_all(const std::vector<Widget>& widgets, const string& sep) {
//                  ^ def function
//                                                                               ^ def parameter scope=render_all
  std::vector<string> out;
  //                  ^ local variable
  for (const auto& w : widgets) out.push_back(w.render(sep));
  //                                            ^ use -- a method this file declares
  std::for_each(widgets.begin(), widgets.end(), [&](const Widget& item) { (void)item; });
  //                                                              ^ local parameter -- a lambda's
  try {
    return out;
  } catch (const std::length_error& err) {
  //                                ^ local variable
    throw std::invalid_argument("cannot render: " + sep);
  }
}

int helper_table() {
  int total = 0;
  //  ^ local variable
  const std::map<string, int> sizes = {{"small", 1}, {"total", total}};
  return sizes.at("small") + static_cast<int>(Widget::Size::kSmall);
  //                                                        ^ use -- a member of an enum this file declares
}

}  // namespace acme

namespace {

acme::Widget make_widget(const std::string& name) {
//           ^ def function
  return acme::Widget(name, static_cast<int>(name.size()) + 3);
  //                                              ^ member-use
  //                                                        ^ number
}

}  // namespace

TEST(WidgetTest, RendersLabel) {
// <- none -- the test macro's head names no code
//               ^ none
  acme::Widget widget = make_widget("box");
  //           ^ local variable test=WidgetTest.RendersLabel
  //                                ^ string !asserting
  EXPECT_EQ(widget.render(""), "w-box: 3px");
  //                           ^ asserting string
  //               ^ asserting use
  // <- !asserting use
  EXPECT_EQ(0, acme::helper_table() - 1) << "helper table is off";
  //        ^ asserting number
  //                                        ^ asserting string -- the failure message
}

TEST(WidgetTest, RejectsBadWidth) {
  int width = -1;
  //          ^ !asserting number
  const std::string expected = "name must not be empty";
  //                           ^ asserting string -- asserted at its every use below
  try {
    make_widget("");
    FAIL() << "no exception for width " << width;
  } catch (const std::invalid_argument& err) {
    EXPECT_EQ(err.what(), expected);
    //                    ^ asserting use test=WidgetTest.RejectsBadWidth
  }
}
