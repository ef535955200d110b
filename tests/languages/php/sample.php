<?php
/*
 * Widget rendering for the dashboard.
 * ZZHIDDEN_license_comment: Widget and DEFAULT_WIDTH are named in this comment only.
 */

declare(strict_types=1);

namespace Acme\Dashboard;
       // ^ import
            // ^ import

use Acme\Support\Registry as Reg;
      // ^ import
                          // ^ local binding
use PHPUnit\Framework\TestCase;

const LABEL_PREFIX = 'w-';
   // ^ def constant scope=
                  // ^ string
defined('WIDGET_DEBUG') || define('WIDGET_DEBUG', false);
                                // ^ def constant -- a global constant declared by its name
                               // ^ string

// ZZHIDDEN_const_comment: LABEL_PREFIX prefixes every label.
/** A box on the dashboard. ZZHIDDEN_docblock mentions render. */
final class Widget
         // ^ def class scope=
{
    public const DEFAULT_WIDTH = 0x7FFF_FFFF;
              // ^ def constant owner=Widget
                              // ^ number
    private static int $count = 0;
                     // ^ def field owner=Widget scope=Widget
    private int $width;

    public function __construct(private readonly string $name, int $width = 3)
                 // ^ def method owner=Widget scope=Widget
                                                      // ^ def field owner=Widget scope=Widget.__construct -- a promoted property
                                                                 // ^ def parameter scope=Widget.__construct
    {
        $this->width = $width;
            // ^ def field owner=Widget scope=Widget.__construct -- the receiver's property
                     // ^ use
        self::$count = self::$count + 1;
            // ^ def field owner=Widget
                           // ^ use -- a static property of this class
        Reg::$latest = $this;
           // ^ member-use -- a property of a class this file does not declare
    }

    public function render(string $sep = ','): string
                 // ^ def method owner=Widget scope=Widget
                                // ^ def parameter scope=Widget.render
    {
        $padded = sprintf('%s%s: %dpx', LABEL_PREFIX, $this->name, $this->width);
      // ^ local variable scope=Widget.render
                       // ^ "parts=: |px"
                                     // ^ use
                                                          // ^ use -- the receiver's property
        // ZZHIDDEN_line_comment: parts holds each trimmed piece.
        $parts = []; /* ZZHIDDEN_block_comment */
        foreach (explode($sep, $padded) as $i => $part) {
              // ^ use
                                         // ^ local variable
                                               // ^ local variable
            $parts[] = trim($part);
        }
        $label = "{$this->name} has {$i} parts";
              // ^ string "parts= has | parts"
        return $padded . count($parts) . $label;
    }

    public static function renderAll(array $widgets, string $sep = "\n"): array
                        // ^ def method owner=Widget
                                         // ^ def parameter scope=Widget.renderAll
    {
        $out = array_map(fn (Widget $w) => $w->render(sep: $sep), $widgets);
      // ^ local variable
                                  // ^ local parameter -- an arrow function's parameter
                                            // ^ use -- a method this file declares
                                                   // ^ use -- a parameter of a method this file declares
        try {
            return $out;
        } catch (\InvalidArgumentException $err) {
                                         // ^ local variable
            throw new \RuntimeException('cannot render: ' . $sep, 0, $err);
        }
    }

    public static function makeWidget(string $name): self
                        // ^ def method
    {
        $client = new \GuzzleHttp\Client(timeout: 2.5);
                    // ^ import
                                      // ^ member-use -- a named argument of a foreign class
                                               // ^ number
        $client->config = ['verify' => false];
              // ^ member-use
                        // ^ string key
        return new self($name, strlen($name) + 3);
    }

    public static function helperTable(): int
    {
        $total = 0;
      // ^ local variable
        return $total + Size::Small->weight();
                           // ^ use -- a case of an enum this file declares
    }
}

enum Size: string
  // ^ def type
{
    case Small = 's';
      // ^ def enum-member owner=Size scope=Size
    case Large = 'l';

    public function weight(): int
    {
        return $this === self::Small ? 1 : 2;
    }
}

function makeWidget(string $name): Widget
      // ^ def function scope=
                         // ^ def parameter scope=makeWidget
{
    return Widget::makeWidget($name);
        // ^ use
                // ^ use -- a method this file declares
}

final class WidgetTest extends TestCase
         // ^ def class
                            // ^ use
{
    private Widget $widget;
                 // ^ def field owner=WidgetTest

    public function testRendersLabel(): void
                 // ^ def method test=WidgetTest::testRendersLabel
    {
        $widget = makeWidget('box');
      // ^ local variable test=WidgetTest::testRendersLabel
                          // ^ string !asserting
        $expected = sprintf('%s: %dpx', 'w-box', 3);
      // ^ local variable !asserting
        $this->assertSame('w-box: 3px', $widget->render());
                       // ^ string asserting
                                              // ^ asserting use -- a method this file declares
        $this->assertSame(0, Widget::helperTable());
                       // ^ asserting number
        $this->assertStringContainsString($expected, $widget->render());
    }

    /**
     * @test
     */
    public function rejectsBadWidth(): void
    {
        $width = -1;
               // ^ !asserting number
        $this->expectException(\InvalidArgumentException::class);
        $this->expectExceptionMessage('width must be positive');
                                   // ^ string asserting
        Widget::renderAll([makeWidget('x')], sep: ', ');
                                          // ^ use -- a named argument of a method this file declares
    }

    #[Test]
    #[DataProvider('widthCases')]
    public function keepsWidth(int $width): void
                 // ^ def method test=WidgetTest::keepsWidth
    {
        $this->assertGreaterThan(0, $width);
    }

    public static function widthCases(): iterable
    {
        yield 'narrow' => [1];
           // ^ string !asserting
    }
}

describe('widget', function () {
    it('renders a label', function () {
        expect(makeWidget('box')->render())->toBe('w-box: 3px');
     // ^ test="widget::renders a label"
                       // ^ asserting string -- inside the expectation, handed on to the code
                                               // ^ asserting string
    });
});
