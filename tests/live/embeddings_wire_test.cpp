// The embeddings wire's pure parts (live/embeddings_wire.hpp): base64 of float32 bytes,
// and vectors that are deterministic, unit length, and closer for texts sharing words.
#include "live/embeddings_wire.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

namespace squall::live {
namespace {

double cosine(const std::vector<float>& a, const std::vector<float>& b) {
  double dot = 0;
  for (std::size_t i = 0; i < a.size(); ++i) dot += static_cast<double>(a[i]) * b[i];
  return dot;  // both have length 1
}

TEST(EmbeddingsWireTest, Base64IsTheLittleEndianFloat32Bytes) {
  EXPECT_EQ(base64_floats({}), "");
  EXPECT_EQ(base64_floats({1.0F}), "AACAPw==");             // 00 00 80 3f
  EXPECT_EQ(base64_floats({1.0F, -2.0F}), "AACAPwAAAMA=");  // ... 00 00 00 c0
  EXPECT_EQ(base64_floats({0.5F, 0.25F, 2.0F}), "AAAAPwAAgD4AAABA");
}

TEST(EmbeddingsWireTest, VectorsAreDeterministicUnitVectorsPerKey) {
  const std::vector<float> a = embedding_vector(7, "Reset your password", kEmbeddingDimensions);
  ASSERT_EQ(a.size(), 1536u);
  EXPECT_EQ(a, embedding_vector(7, "Reset your password", kEmbeddingDimensions));
  EXPECT_NE(a, embedding_vector(8, "Reset your password", kEmbeddingDimensions));
  EXPECT_NEAR(cosine(a, a), 1.0, 1e-6);
  // Case is folded: the words are the same, only the dense term (seeded by the text) differs.
  EXPECT_GT(cosine(a, embedding_vector(7, "reset your PASSWORD", kEmbeddingDimensions)), 0.95);
  for (float x : a) EXPECT_NE(x, 0.0F);
}

TEST(EmbeddingsWireTest, TextsSharingWordsAreCloser) {
  const auto v = [](std::string_view text) { return embedding_vector(3, text, kEmbeddingDimensions); };
  const auto query = v("how do I reset my password");
  EXPECT_GT(cosine(query, v("reset password link")), cosine(query, v("export project data as CSV")));
  EXPECT_LT(std::abs(cosine(v("alpha beta"), v("gamma delta"))), 0.2);
}

TEST(EmbeddingsWireTest, DimensionsKeepTheFirstComponentsRenormalised) {
  const auto full = embedding_vector(5, "two factor authentication", kEmbeddingDimensions);
  const auto short_vector = embedding_vector(5, "two factor authentication", 8);
  ASSERT_EQ(short_vector.size(), 8u);
  const double norm = std::sqrt(std::inner_product(full.begin(), full.begin() + 8, full.begin(), 0.0));
  for (std::size_t i = 0; i < 8; ++i) EXPECT_NEAR(short_vector[i], full[i] / norm, 1e-6) << i;
}

}  // namespace
}  // namespace squall::live
