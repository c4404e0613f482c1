#include "reports/sweep_robustness.hpp"

#include <algorithm>
#include <charconv>

namespace squall {
namespace {

std::size_t index_of(std::vector<std::string>& list, const std::string& item) {
  const auto it = std::find(list.begin(), list.end(), item);
  if (it != list.end()) return static_cast<std::size_t>(it - list.begin());
  list.push_back(item);
  return list.size() - 1;
}

// A JSON number's value; none for any other JSON text.
std::optional<double> number_of(const std::string& json) {
  double x = 0;
  const char* end = json.data() + json.size();
  const auto [ptr, ec] = std::from_chars(json.data(), end, x);
  if (ec != std::errc() || ptr != end) return std::nullopt;
  return x;
}

// Each column's number when all of them set the same single pointer to a number.
std::vector<std::optional<double>> x_values(const std::vector<SweepParams>& columns) {
  std::vector<std::optional<double>> x(columns.size());
  for (std::size_t c = 0; c < columns.size(); ++c) {
    if (columns[c].size() != 1 || columns[c].front().first != columns.front().front().first) {
      return std::vector<std::optional<double>>(columns.size());
    }
    x[c] = number_of(columns[c].front().second);
    if (!x[c]) return std::vector<std::optional<double>>(columns.size());
  }
  return x;
}

}  // namespace

std::optional<RobustnessGrid> robustness_grid(const SweepResult& r) {
  const bool any = std::any_of(r.variants.begin(), r.variants.end(),
                               [](const SweepVariantInfo& v) { return !scenario_params(v.params).empty(); });
  if (!any) return std::nullopt;
  RobustnessGrid g;
  std::vector<std::pair<std::size_t, std::size_t>> cells;  // per variant: row, column
  for (const SweepVariantInfo& v : r.variants) {
    const std::string label = scenario_setting_label(v.params);
    const std::size_t column = index_of(g.columns, label.empty() ? "as written" : label);
    if (column == g.column_params.size()) g.column_params.push_back(scenario_params(v.params));
    cells.emplace_back(index_of(g.rows, policy_part_name(v.name, v.params)), column);
  }
  g.x = x_values(g.column_params);
  g.variant.assign(g.rows.size(), std::vector<std::optional<std::size_t>>(g.columns.size()));
  for (std::size_t v = 0; v < cells.size(); ++v) g.variant[cells[v].first][cells[v].second] = v;
  return g;
}

}  // namespace squall
