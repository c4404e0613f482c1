#include "mocks/input_file.hpp"

#include <array>
#include <fstream>

#include <fmt/format.h>

namespace squall {

std::variant<std::string, InputFileError> read_input_file(const std::filesystem::path& file) {
  std::error_code ec;
  const std::filesystem::file_status status = std::filesystem::status(file, ec);
  if (status.type() == std::filesystem::file_type::not_found) return InputFileError{"file not found"};
  if (ec) return InputFileError{"cannot be read"};
  if (!std::filesystem::is_regular_file(status)) return InputFileError{"not a regular file"};
  const std::string too_large = fmt::format("larger than {} MiB", kMaxInputFileBytes / (1024 * 1024));
  if (const auto size = std::filesystem::file_size(file, ec); !ec && size > kMaxInputFileBytes) {
    return InputFileError{too_large};
  }

  std::ifstream in(file, std::ios::binary);
  if (!in) return InputFileError{"cannot be read"};
  // The size is checked again while reading: the file may have grown since.
  std::string text;
  std::array<char, 64 * 1024> buffer{};
  while (in.read(buffer.data(), buffer.size()) || in.gcount() > 0) {
    text.append(buffer.data(), static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxInputFileBytes) return InputFileError{too_large};
  }
  if (in.bad()) return InputFileError{"cannot be read"};
  return text;
}

}  // namespace squall
