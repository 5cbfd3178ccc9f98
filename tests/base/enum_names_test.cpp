#include "base/enum_names.hpp"

#include <gtest/gtest.h>

namespace nb {
namespace {

enum class Colour { red, green, blue };

constexpr EnumName<Colour> kColours[] = {
    {Colour::red, "red"}, {Colour::green, "green"}, {Colour::blue, "blue"}};
constexpr EnumName<Colour> kOutOfOrder[] = {{Colour::green, "green"}, {Colour::red, "red"}};
constexpr EnumName<Colour> kWithAGap[] = {{Colour::red, "red"}, {Colour::blue, "blue"}};

TEST(EnumNames, ANameReadsBackAsItsValue) {
  for (const auto& entry : kColours) {
    EXPECT_EQ(name_of(kColours, entry.value), entry.name);
    EXPECT_EQ(value_named(kColours, entry.name), entry.value);
  }
}

TEST(EnumNames, AValueOutsideTheTableReadsAsTheFallback) {
  EXPECT_EQ(name_of(kColours, static_cast<Colour>(7)), "unknown");
  EXPECT_EQ(name_of(kColours, static_cast<Colour>(7), "red"), "red");
  EXPECT_EQ(name_of(kWithAGap, Colour::green), "unknown");
}

TEST(EnumNames, ANameOutsideTheTableIsNoValue) {
  EXPECT_FALSE(value_named(kColours, "").has_value());
  EXPECT_FALSE(value_named(kColours, "Red").has_value());
  EXPECT_FALSE(value_named(kColours, "red ").has_value());
}

TEST(EnumNames, OnlyATableInDeclarationOrderWithoutGapsNamesEveryValue) {
  static_assert(names_every_value(kColours));
  EXPECT_FALSE(names_every_value(kOutOfOrder));
  EXPECT_FALSE(names_every_value(kWithAGap));
}

}  // namespace
}  // namespace nb
