#include "io/csv_field.h"

#include <gtest/gtest.h>

namespace memplan {
namespace {

TEST(CsvFieldTest, QuotesOnlyWhenNeeded) {
  EXPECT_EQ(CsvField("%y = conv"), "%y = conv");
  EXPECT_EQ(CsvField("a;b"), "a;b");
  EXPECT_EQ(CsvField("a,b"), "\"a,b\"");
  EXPECT_EQ(CsvField("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(CsvField("two\nlines"), "\"two\nlines\"");
  EXPECT_EQ(CsvField("cr\rhere"), "\"cr\rhere\"");
}

}  // namespace
}  // namespace memplan
