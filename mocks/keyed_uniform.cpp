#include "mocks/keyed_uniform.hpp"

namespace squall {

double keyed_uniform(std::uint64_t key, std::uint64_t task_id, std::string_view text, std::uint64_t index) {
  return keyed_uniform_of_crc(key, task_id, crc64_xz(text), index);
}

}  // namespace squall
