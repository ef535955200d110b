# frozen_string_literal: true
#
# Widget rendering for the dashboard.
# ZZHIDDEN_file_comment: render and DEFAULT_WIDTH are named in this comment only.
require "json"
# <- import
#       ^ import string
require_relative "support/colors"
#                ^ import string -- a path: never a name

=begin
ZZHIDDEN_block_comment: Widget is documented here and nowhere else.
=end

module Dashboard
#      ^ def type scope= -- a module
  DEFAULT_WIDTH = 0x7FFF_FFFF
  # <- def constant owner=Dashboard scope=Dashboard
  #               ^ number
  LABEL_PREFIX = "w-"
  #              ^ string !asserting

  # A box on the dashboard. ZZHIDDEN_class_comment: width
  class Widget
  #     ^ def class owner=Dashboard scope=Dashboard
    attr_reader :name, :width
    #           ^ string -- a symbol, read with its colon
    SIZES = %i[small large].freeze
    # <- def constant owner=Widget scope=Dashboard.Widget
    #          ^ string -- a %i word

    def initialize(name, width = 3, label: nil, color: "red")
    #   ^ def method owner=Widget scope=Dashboard.Widget
    #              ^ local parameter scope=Dashboard.Widget.initialize -- positional: no caller names it
    #                               ^ def parameter scope=Dashboard.Widget.initialize -- a keyword: callers name it
      @name = name
      # <- local variable -- an instance variable: the object's private state
      #       ^ use
      self.width = width
      #    ^ def field owner=Widget scope=Dashboard.Widget.initialize -- the writer of self
      @label = label || "#{LABEL_PREFIX}#{name}: #{width}px"
      #                 ^ "parts=: |px" string
      Registry.latest = self
      # <- use
      #        ^ member-use -- an attribute of a foreign object
    end

    def render(prefix = "")
      padded = format("%s%s: %dpx", prefix, LABEL_PREFIX, width)
      # <- local variable scope=Dashboard.Widget.render
      #               ^ "parts=: |px" string
      parts = padded.split(",").map { |part| part.strip }
      #              ^ member-use
      #                                ^ local parameter -- a block's parameter
      "#{padded} (#{parts.size})"
    end

    def self.render_all(widgets, sep: ", ")
    #        ^ def method owner=Widget
    #                   ^ local parameter
    #                            ^ def parameter
      widgets.map(&:render).join(sep)
      #            ^ string
    rescue ArgumentError => e
    #                       ^ local variable -- a rescued exception
      raise ArgumentError, "cannot render: #{e.message}"
      #                    ^ "parts=cannot render: " string
    end

    private

    attr_writer :width
  end

  Point = Struct.new(:x, :y) do
  # <- def constant owner=Dashboard
  #              ^ member-use
    def dist
    #   ^ def method owner=Point scope=Dashboard.Point -- a method of the Struct's class body
      Math.sqrt((x**2) + (y**2))
      #             ^ number
    end
  end

  def self.table
  #        ^ def method owner=Dashboard
    total = 0
    # <- local variable scope=Dashboard.table
    { small: 1, "total" => total, ratio: 2.5 }
    # ^ use key -- a hash's bare key
    #           ^ string key
    #                                    ^ number
  end
end

def make_widget(name)
#   ^ def function scope=
#               ^ local parameter scope=make_widget
  Dashboard::Widget.new(name, label: "w-#{name}: 3px")
  #          ^ use -- a class this file declares
  #                           ^ use -- a keyword of a class declared here
end

RSpec.describe Dashboard::Widget do
  let(:expected) { "w-box: 3px" }
  #                ^ string asserting -- the expected value of a let

  describe "rendering" do
    it "renders a label" do
    #  ^ string "test=Dashboard::Widget rendering renders a label"
      widget = make_widget("box")
      # <- local variable "test=Dashboard::Widget rendering renders a label"
      #                    ^ string !asserting -- fed in
      expect(widget.render).to eq(expected)
      # <- asserting use
      #                           ^ asserting use
      expect(widget.render("> ")).to eq("> w-box: 3px")
      #                                 ^ string asserting
      #                    ^ string asserting -- the actual side's input
      expect(JSON.parse("{}")).to be_empty
      #           ^ member-use asserting
    end

    context "when the width is negative" do
      it "raises" do
        expect { Dashboard::Widget.new("box", -1).render }
          .to raise_error(ArgumentError, "width must be positive")
          #                              ^ string asserting "test=Dashboard::Widget rendering when the width is negative raises"
      end
    end
  end
end

class WidgetTest < Minitest::Test
  def test_width
  #   ^ def method owner=WidgetTest test=test_width
    message = <<~TEXT
      w-box: 3px
    TEXT
    assert_equal message.strip, make_widget("box").render
    # <- !asserting use
    #            ^ asserting use
    #                                       ^ string asserting -- handed to the code inside the assertion
    assert_equal 3, Dashboard.table[:small]
    #            ^ asserting number
  end
end
