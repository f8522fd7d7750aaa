// The panel's one number format (format_number, overlay_widgets.hpp): the Pools table's
// columns are sized for five characters, so every count the overlay prints through Compact must
// fit in five, at every magnitude a run can reach; the Frame time and Compare tables' ratio
// columns hold six (Ratio), times five (Ms), bytes eight (Bytes).
#include "overlay/overlay_widgets.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <string>

namespace game {
namespace {

using overlay_widgets::Bytes;
using overlay_widgets::Compact;
using overlay_widgets::Ms;
using overlay_widgets::Ratio;

TEST(OverlayRatio, RatiosKeepThreeDigitsAndNeverPassSixCharacters) {
  EXPECT_STREQ(Ratio(0.88).text, "0.88x");
  EXPECT_STREQ(Ratio(4.19).text, "4.19x");
  EXPECT_STREQ(Ratio(9.994).text, "9.99x");
  EXPECT_STREQ(Ratio(9.995).text, "10.0x");
  EXPECT_STREQ(Ratio(99.94).text, "99.9x");
  EXPECT_STREQ(Ratio(99.95).text, "100x");
  EXPECT_STREQ(Ratio(7003.71).text, "7004x");
  EXPECT_STREQ(Ratio(12'345.0).text, "12.3kx");
  for (double v = 0.01; v < 1e8; v *= 1.0137) {
    EXPECT_LE(std::strlen(Ratio(v).text), 6u) << v << " -> " << Ratio(v).text;
  }
}

TEST(OverlayCompact, CountsReadAsExpectedAndNeverPassFiveCharacters) {
  EXPECT_STREQ(Compact(0.0).text, "0");
  EXPECT_STREQ(Compact(9999.0).text, "9999");
  EXPECT_STREQ(Compact(51'480.0).text, "51.5k");
  EXPECT_STREQ(Compact(99'949.0).text, "99.9k");
  EXPECT_STREQ(Compact(99'950.0).text, "100k");
  EXPECT_STREQ(Compact(147'512.0).text, "148k");
  EXPECT_STREQ(Compact(999'499.0).text, "999k");
  EXPECT_STREQ(Compact(999'500.0).text, "1.00M");
  EXPECT_STREQ(Compact(1'048'576.0).text, "1.05M");
  EXPECT_STREQ(Compact(12'345'678.0).text, "12.3M");
  EXPECT_STREQ(Compact(148'000'000.0).text, "148M");
  for (double v = 1; v < 1e9; v *= 1.0137) {
    EXPECT_LE(std::strlen(Compact(v).text), 5u) << v << " -> " << Compact(v).text;
  }
}

TEST(OverlayMs, TimesKeepThreeDigitsAndNeverPassFiveCharacters) {
  EXPECT_STREQ(Ms(0.0041).text, "0.004");  // a pooled step can take that
  EXPECT_STREQ(Ms(0.4).text, "0.400");
  EXPECT_STREQ(Ms(4.186).text, "4.19");
  EXPECT_STREQ(Ms(16.67).text, "16.7");
  EXPECT_STREQ(Ms(123.4).text, "123");
  EXPECT_STREQ(Ms(4190.0).text, "4190");
  for (double v = 0.0001; v < 9999; v *= 1.0137) {
    EXPECT_LE(std::strlen(Ms(v).text), 5u) << v << " -> " << Ms(v).text;
  }
}

TEST(OverlayBytes, BinaryUnitsWithThreeDigitsAndNeverPassEightCharacters) {
  EXPECT_STREQ(Bytes(512).text, "512 B");
  EXPECT_STREQ(Bytes(1023).text, "1023 B");
  EXPECT_STREQ(Bytes(1536).text, "1.50 KiB");
  EXPECT_STREQ(Bytes(19'922'944).text, "19.0 MiB");
  EXPECT_STREQ(Bytes(155'189'248).text, "148 MiB");
  for (double v = 1; v < 1e13; v *= 1.0137) {
    EXPECT_LE(std::strlen(Bytes(static_cast<std::size_t>(v)).text), 8u)
        << v << " -> " << Bytes(static_cast<std::size_t>(v)).text;
  }
}

}  // namespace
}  // namespace game
