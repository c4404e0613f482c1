#include "replay/otlp_reader.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <iterator>
#include <map>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "replay/otlp_attempt.hpp"
#include "replay/otlp_span.hpp"
#include "replay/text_lines.hpp"

namespace squall::replay {
namespace {

struct Document {
  Json json;
  std::size_t line = 0;  // 0: the whole file is one document
};

// The whole file as one document, else one document per non-blank line (the collector's
// file exporter). A file whose first line is not a whole JSON value is reported as one document.
std::vector<Document> parse_documents(std::string_view text, const std::string& file) {
  std::vector<Document> docs;
  try {
    docs.push_back({Json::parse(text), 0});
    return docs;
  } catch (const Json::parse_error& whole) {
    const std::size_t first_end = text.find('\n');
    if (first_end == std::string_view::npos || whole.byte <= first_end + 1 ||
        !Json::accept(text.substr(0, first_end))) {
      throw_not_json(file, text, whole, 1);
    }
  } catch (const Json::out_of_range&) {
    parse_json_text(text, file, 1);  // throws, with the number's line and column
  }
  for_each_nonblank_line(text, [&](std::size_t number, std::string_view row) {
    docs.push_back({parse_json_text(row, file, number), number});
  });
  return docs;
}

[[noreturn]] void not_otlp(const std::string& file, std::size_t line, const std::string& pointer,
                           std::string_view expected, std::string_view got) {
  const std::string where = line == 0 ? file : fmt::format("{}:{}", file, line);
  throw TraceInputError(fmt::format("{}: {}: expected {}, got {}", where, pointer, expected, got));
}
[[noreturn]] void not_otlp(const std::string& file, std::size_t line, const std::string& pointer,
                           std::string_view expected, const Json& got) {
  not_otlp(file, line, pointer, expected, std::string_view(shown(got)));
}

const Json& array_member(const Json& object, const char* key, const std::string& file, std::size_t line,
                         const std::string& pointer) {
  if (!object.is_object()) not_otlp(file, line, pointer, "an object", object);
  const auto it = object.find(key);
  static const Json kEmpty = Json::array();
  if (it == object.end()) return kEmpty;  // proto3 JSON omits empty repeated fields
  if (!it->is_array()) not_otlp(file, line, pointer + "/" + key, "an array", *it);
  return *it;
}

// Whether a resource is squall's own export (reports/writers/otlp_writer.hpp).
bool from_squall(const Json& resource_spans) {
  const auto resource = resource_spans.find("resource");
  if (resource == resource_spans.end() || !resource->is_object()) return false;
  const auto attrs = resource->find("attributes");
  if (attrs == resource->end() || !attrs->is_array()) return false;
  for (const Json& kv : *attrs) {
    if (kv.is_object() && kv.value("key", "") == "service.name" && kv.contains("value") && kv["value"].is_object() &&
        kv["value"].value("stringValue", "") == "squall") {
      return true;
    }
  }
  return false;
}

// Every span of every document, in file order.
std::vector<OtlpSpan> spans_of(const std::vector<Document>& docs, const std::string& file) {
  std::vector<OtlpSpan> spans;
  for (const Document& doc : docs) {
    if (!doc.json.is_object() || !doc.json.contains("resourceSpans")) {
      not_otlp(file, doc.line, "/resourceSpans", "an array (an OTLP ExportTraceServiceRequest)",
               std::string_view("nothing"));
    }
    const Json& resources = array_member(doc.json, "resourceSpans", file, doc.line, "");
    for (std::size_t r = 0; r < resources.size(); ++r) {
      const std::string rp = fmt::format("/resourceSpans/{}", r);
      const Json& scopes = array_member(resources[r], "scopeSpans", file, doc.line, rp);
      const bool squall = from_squall(resources[r]);
      for (std::size_t s = 0; s < scopes.size(); ++s) {
        const std::string sp = fmt::format("{}/scopeSpans/{}", rp, s);
        const Json& list = array_member(scopes[s], "spans", file, doc.line, sp);
        for (std::size_t i = 0; i < list.size(); ++i) {
          SpanWhere where{file, doc.line, spans.size(), fmt::format("{}/spans/{}", sp, i)};
          spans.push_back(decode_span(list[i], std::move(where)));
          spans.back().from_squall = squall;
        }
      }
    }
  }
  return spans;
}

std::string key_of(const OtlpSpan& s) { return s.trace_id + s.span_id; }
std::string parent_key(const OtlpSpan& s) { return s.trace_id + s.parent_id; }

// The HTTP client spans under each attempt span (its requests), in start order; every other
// span that is not GenAI counted as other.
std::vector<std::vector<const OtlpSpan*>> requests_under_attempts(
    const std::vector<const OtlpSpan*>& kept, const std::unordered_map<std::string, std::size_t>& index,
    const std::vector<SpanRole>& roles, ReadCounts& counts) {
  std::vector<std::vector<const OtlpSpan*>> requests(kept.size());
  for (std::size_t i = 0; i < kept.size(); ++i) {
    if (roles[i].kind != SpanKindForReplay::other) continue;
    const auto parent = kept[i]->parent_id.empty() ? index.end() : index.find(parent_key(*kept[i]));
    if (parent == index.end() || roles[parent->second].kind != SpanKindForReplay::attempt ||
        !is_http_request(*kept[i])) {
      ++counts.other_spans;
      continue;
    }
    ++counts.http_children;
    requests[parent->second].push_back(kept[i]);
  }
  for (std::vector<const OtlpSpan*>& list : requests) {
    std::stable_sort(list.begin(), list.end(), [](const OtlpSpan* x, const OtlpSpan* y) {
      return std::pair(x->start_ns, x->end_ns) < std::pair(y->start_ns, y->end_ns);
    });
  }
  return requests;
}

// HTTP requests to a GenAI endpoint with no GenAI span over them (a trace with HTTP
// instrumentation only, or a GenAI span its instrumentation never ended, as
// instrumentation-openai 0.21 leaves a stream that threw): attempts of their own.
void endpoint_requests(const std::vector<const OtlpSpan*>& kept,
                       const std::unordered_map<std::string, std::size_t>& index, std::vector<SpanRole>& roles,
                       ReadCounts& counts) {
  std::vector<std::pair<std::size_t, std::string>> found;
  for (std::size_t i = 0; i < kept.size(); ++i) {
    if (roles[i].kind != SpanKindForReplay::other || !is_http_request(*kept[i])) continue;
    const auto parent = kept[i]->parent_id.empty() ? index.end() : index.find(parent_key(*kept[i]));
    if (parent != index.end() && roles[parent->second].kind == SpanKindForReplay::attempt) continue;
    if (std::string op = endpoint_operation(*kept[i]); !op.empty()) found.emplace_back(i, std::move(op));
  }
  for (auto& [i, op] : found) {
    roles[i] = SpanRole{SpanKindForReplay::attempt, std::move(op), "", true};
    ++counts.endpoint_requests;
  }
}

// A request alone takes the provider and model that GenAI spans name for the same server
// and endpoint (instrumentation-openai says "openai" where its requests say 127.0.0.1; one
// gateway may serve /v1/chat/completions and /v1/messages), else for the same server and
// operation when those spans' requests are not in the trace.
void name_like_spans(std::vector<AttemptRecord>& attempts, const std::vector<std::size_t>& lone) {
  if (lone.empty()) return;
  using Key = std::pair<std::string, std::string>;
  std::map<Key, const AttemptRecord*> by_endpoint;   // (server, endpoint)
  std::map<Key, const AttemptRecord*> by_operation;  // (server, operation), spans without requests
  std::size_t next = 0;
  for (std::size_t i = 0; i < attempts.size(); ++i) {
    if (next < lone.size() && lone[next] == i) {
      ++next;
      continue;
    }
    const AttemptRecord& a = attempts[i];
    if (!a.endpoint.empty()) by_endpoint.try_emplace({a.server_address, a.endpoint}, &a);
    if (a.endpoint.empty()) by_operation.try_emplace({a.server_address, a.operation}, &a);
  }
  for (const std::size_t i : lone) {
    AttemptRecord& a = attempts[i];
    const AttemptRecord* like = nullptr;
    if (const auto e = by_endpoint.find({a.server_address, a.endpoint}); e != by_endpoint.end()) like = e->second;
    if (const auto o = by_operation.find({a.server_address, a.operation}); !like && o != by_operation.end())
      like = o->second;
    if (like == nullptr) continue;
    a.provider = like->provider;
    a.request_model = like->request_model;
  }
}

[[noreturn]] void no_genai_spans(const std::vector<TraceText>& files, std::size_t spans) {
  std::string names;
  for (const TraceText& f : files) names += (names.empty() ? "" : ", ") + f.file;
  throw TraceInputError(fmt::format(
      "{}: no GenAI spans ({} spans, none with gen_ai.operation.name, gen_ai.provider.name or gen_ai.system, "
      "nor named like \"chat MODEL\")",
      names, spans));
}

}  // namespace

void read_otlp_texts(const std::vector<TraceText>& files, TraceData& out) {
  std::vector<std::vector<Document>> docs;  // the spans' attributes point into them
  std::vector<OtlpSpan> spans;
  for (const TraceText& f : files) {
    docs.push_back(parse_documents(f.text, f.file));
    std::vector<OtlpSpan> more = spans_of(docs.back(), f.file);
    out.counts.records += more.size();
    std::move(more.begin(), more.end(), std::back_inserter(spans));
  }
  // Duplicates (an exporter's retry sends a batch twice; a rotated file repeats a line):
  // the first copy is kept.
  std::vector<const OtlpSpan*> kept;
  std::unordered_map<std::string, std::size_t> index;  // trace+span id -> position in kept
  for (const OtlpSpan& s : spans) {
    if (!index.emplace(key_of(s), kept.size()).second) {
      ++out.counts.duplicates;
      continue;
    }
    kept.push_back(&s);
  }
  std::vector<SpanRole> roles(kept.size());
  for (std::size_t i = 0; i < kept.size(); ++i) roles[i] = role_of(*kept[i]);
  endpoint_requests(kept, index, roles, out.counts);

  const std::vector<std::vector<const OtlpSpan*>> requests = requests_under_attempts(kept, index, roles, out.counts);
  std::size_t genai = 0;
  std::vector<std::size_t> lone;  // records of endpoint requests, in out.attempts
  for (std::size_t i = 0; i < kept.size(); ++i) {
    const OtlpSpan& s = *kept[i];
    if (roles[i].kind == SpanKindForReplay::other) continue;
    ++genai;
    const bool orphan = !s.parent_id.empty() && index.find(parent_key(s)) == index.end();
    if (orphan) ++out.counts.orphans;
    if (roles[i].kind == SpanKindForReplay::agent) {
      out.agents.push_back(agent_of(s, out.counts));
      ++out.counts.agent_spans;
      continue;
    }
    for (AttemptRecord& record : attempts_of(s, roles[i], requests[i], out.counts)) {
      if (orphan) record.parent_id.clear();
      if (roles[i].http_only) lone.push_back(out.attempts.size());
      out.attempts.push_back(std::move(record));
      ++out.counts.attempts;
    }
  }
  if (genai == 0) no_genai_spans(files, spans.size());
  name_like_spans(out.attempts, lone);
}

void read_otlp_text(std::string_view text, const std::string& file, TraceData& out) {
  read_otlp_texts({TraceText{file, std::string(text)}}, out);
}

}  // namespace squall::replay
