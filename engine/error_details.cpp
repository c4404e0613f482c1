#include "engine/error_details.hpp"

#include <functional>

#include <boost/container_hash/hash.hpp>

namespace squall {

std::size_t ErrorDetailsStore::Hash::operator()(const ErrorDetails& d) const {
  std::size_t seed = 0;
  for (const std::string_view field :
       {d.error_code, d.error_message, d.retry_after, d.retry_after_ms, d.retry_delay, d.body_error, d.should_retry}) {
    boost::hash_combine(seed, std::hash<std::string_view>{}(field));
  }
  return seed;
}

const ErrorDetails* ErrorDetailsStore::keep(const ErrorDetails& details) {
  if (details == kNoErrorDetails) return nullptr;
  return &*kept_.insert(details).first;
}

}  // namespace squall
