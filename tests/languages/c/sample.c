/*
 * Widget rendering for the dashboard.
 * ZZHIDDEN_license_comment: widget_render and DEFAULT_WIDTH are named in this comment only.
 */
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include "unity.h"
//       ^ import string
#include "widget.h"

#define WIDGET_PREFIX "w-"
//      ^ def constant scope=
//                    ^ string
#define DEFAULT_WIDTH 0x7FFF
//                    ^ number
#define CLAMP(v, hi) ((v) > (hi) ? (hi) : (v))
//      ^ def function
//            ^ local parameter

/* ZZHIDDEN_enum_comment: SIZE_SMALL and SIZE_LARGE are the sizes a widget can have. */
enum size { SIZE_SMALL, SIZE_LARGE = 2 };
//   ^ def type
//          ^ def enum-member
//                                   ^ number

/** A box on the dashboard. ZZHIDDEN_doc_comment */
typedef struct widget {
//             ^ def type scope=
    const char *name;
    //          ^ def field owner=widget scope=widget
    int width;
    //  ^ def field owner=widget
    int (*render)(const struct widget *self, char *out, size_t len);
    //    ^ def field owner=widget
    //                                 ^ local parameter -- a function pointer type's
    struct timeval created;
    //     ^ use
} widget_t;
//^ def type

typedef struct {
    unsigned char r, g, b;
    //            ^ def field owner=color_t scope=color_t
} color_t;

static const char *const LABELS[] = { "small", "large" };
//                       ^ def constant
//                                    ^ string
static int render_count = 0;
//         ^ def variable
extern int verbose;
//         ^ use variable -- declared here, defined in some other file
int widget_width(const widget_t *w);
//  ^ use function -- a prototype: the definition is elsewhere
//                               ^ local parameter

static widget_t *widget_new(const char *name)
//               ^ def function
//                                      ^ def parameter scope=widget_new
{
    static widget_t pool[4];
    int slot = render_count % 4;
    pool[slot] = (widget_t){ .name = name, .width = 3 };
    //                        ^ use -- a field of a type this file declares
    //                               ^ use
    widget_t *w = &pool[slot];
    //        ^ local variable scope=widget_new
    struct timeval now = { .tv_sec = 0 };
    //                      ^ member-use -- a field of a foreign type
    gettimeofday(&now, NULL);
    w->created = now;
    // <- use
    // ^ use -- a member this file declares
    return w;
}

/* Render draws the widget. ZZHIDDEN_function_comment: widget_render fills out. */
int widget_render(const widget_t *w, const char *prefix, char *out, size_t len)
//  ^ def function
//                                ^ def parameter scope=widget_render
{
    int n = snprintf(out, len, "%s%s: %dpx", prefix, WIDGET_PREFIX, w->width);
    //  ^ local variable scope=widget_render
    //                         ^ string "parts=: |px"
    //                                       ^ use
    //                                                                 ^ use
    if (n < 0 || (size_t)n >= len) {
        goto fail;
        //   ^ use
    }
    for (int i = 0; i < n; i++) {
    //       ^ local variable
        out[i] = (char)CLAMP(out[i], 126);
    }
    render_count++;
    return n;
fail:
// <- local label
    out[0] = '\0';
    //       ^ string
    return -1;
    //     ^ number -- the minus is part of the literal
}

static const char *describe(const struct timeval *tv)
{
    static char buf[32];
    snprintf(buf, sizeof buf, "%ld", (long)tv->tv_sec);
    //                                         ^ member-use
    return buf;
}

void setUp(void)
{
    render_count = 0;
}

void tearDown(void)
{
}

void test_render(void)
//   ^ def function test=test_render
{
    char out[64];
    //   ^ local variable test=test_render
    const char *given = "box";
    //                  ^ string !asserting
    const char *want = "w-box: 3px";
    //                 ^ string asserting -- asserted through the local
    widget_t *w = widget_new(given);
    widget_render(w, "", out, sizeof out);
    //               ^ string !asserting
    TEST_ASSERT_EQUAL_STRING(want, out);
    //                             ^ asserting use
    TEST_ASSERT_EQUAL_INT(3, w->width);
    //                    ^ number asserting
    //                          ^ asserting use
    // <- !asserting use
    if (strcmp(describe(&w->created), "0") != 0) {
    //                                ^ string asserting
        TEST_FAIL_MESSAGE("created at the epoch");
        //                ^ string asserting
    }
}

static void render_fallback(void **state)
//          ^ def function test=render_fallback
//                                 ^ def parameter
{
    char out[8];
    (void)state;
    assert_int_equal(widget_render(widget_new("tiny"), "x", out, 1), -1);
    //                                                 ^ string asserting -- handed to the call
    //                                                               ^ number asserting
}

int main(void)
{
    UNITY_BEGIN();
    RUN_TEST(test_render);
    //       ^ use
    return UNITY_END();
}
