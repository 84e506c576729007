// Tokens of the text format, in particular the punctuation of size
// expressions and dim bounds.
#include "ir/text_lexer.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace memplan {
namespace {

// "kind:text" for every token up to and including kEnd or kError.
std::vector<std::string> Tokens(std::string_view text) {
  std::vector<std::string> out;
  Lexer lexer(text);
  while (true) {
    const Token t = lexer.Next();
    out.push_back(std::to_string(static_cast<int>(t.kind)) + ":" +
                  (t.kind == TokenKind::kError ? t.value : std::string(t.text)));
    if (t.kind == TokenKind::kEnd || t.kind == TokenKind::kError) return out;
  }
}

std::string Tok(TokenKind kind, std::string_view text) {
  return std::to_string(static_cast<int>(kind)) + ":" + std::string(text);
}

TEST(TextLexerTest, SizeExpressionPunctuation) {
  EXPECT_EQ(Tokens("dim %n <= 64"),
            (std::vector<std::string>{Tok(TokenKind::kIdent, "dim"), Tok(TokenKind::kValueName, "%n"),
                                      Tok(TokenKind::kLessEqual, "<="), Tok(TokenKind::kInt, "64"),
                                      Tok(TokenKind::kEnd, "")}));
  // No spaces needed: numbers and names end at '+' and '*'.
  EXPECT_EQ(Tokens("4*%n+64"),
            (std::vector<std::string>{Tok(TokenKind::kInt, "4"), Tok(TokenKind::kStar, "*"),
                                      Tok(TokenKind::kValueName, "%n"), Tok(TokenKind::kPlus, "+"),
                                      Tok(TokenKind::kInt, "64"), Tok(TokenKind::kEnd, "")}));
  // An exponent's sign still belongs to the number.
  EXPECT_EQ(Tokens("1e+5+2"),
            (std::vector<std::string>{Tok(TokenKind::kFloat, "1e+5"), Tok(TokenKind::kPlus, "+"),
                                      Tok(TokenKind::kInt, "2"), Tok(TokenKind::kEnd, "")}));
}

TEST(TextLexerTest, LoneLessThanIsAnError) {
  EXPECT_EQ(Tokens("< 4"), (std::vector<std::string>{Tok(TokenKind::kError, "unexpected character '<'")}));
  EXPECT_EQ(Tokens("<"), (std::vector<std::string>{Tok(TokenKind::kError, "unexpected character '<'")}));
}

}  // namespace
}  // namespace memplan
