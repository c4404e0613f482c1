#!/usr/bin/env bash
# Builds the scale corpus from this machine's Debian package index: one document per
# binary package, {"title": <name>, "link": "https://packages.debian.org/<codename>/<name>",
# "snippet": <description>}, sorted by name, one JSON object per line (mocks/corpus.hpp).
# Nothing of it is committed: it is written to build/corpora/debian.jsonl (git-ignored), or
# to the path given as the first argument. The scale scenario (scenarios/scale/) and the
# vector-search benchmark (bench/vector_search_bench.cpp) read it.
#
# The source is `apt-cache dumpavail`, the package index apt keeps after `apt-get update`
# (/var/lib/apt/lists). A package listed by several sources (bookworm, -updates,
# -security) appears once, with its first stanza. The description is the short description
# plus the long one when the index has it (Debian's main Packages files carry only the short
# one; the long ones are in the Translation files), continuation lines joined by spaces and
# the " ." paragraph separators dropped. Idempotent; prints what it wrote.
set -euo pipefail
cd "$(dirname "$0")/.."

out="${1:-build/corpora/debian.jsonl}"
if ! command -v apt-cache >/dev/null 2>&1; then
  echo "build-debian-corpus: apt-cache not found; this needs a Debian or Ubuntu machine" >&2
  exit 1
fi
codename="$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")"
codename="${codename:-stable}"

mkdir -p "$(dirname "$out")"
tmp="$out.tmp"
# perl-base is Essential in Debian, so perl is always there; JSON strings are escaped by
# hand (RFC 8259: quote, backslash and control characters) since JSON::PP is not in it.
apt-cache dumpavail | LC_ALL=C perl -CSD -ne '
  BEGIN { $codename = shift @ARGV; }
  sub flush {
    if (defined $name && length $desc && !$seen{$name}++) { $docs{$name} = $desc; }
    undef $name; $desc = ""; $in_desc = 0;
  }
  sub esc { my $s = shift; $s =~ s/(["\\])/\\$1/g; $s =~ s/([\x00-\x1f])/sprintf("\\u%04x", ord $1)/ge; $s; }
  chomp;
  if ($_ eq "") { flush(); next; }
  if (/^Package:\s*(\S+)/) { $name = $1; $in_desc = 0; next; }
  if (/^Description:\s*(.*)$/) { $desc = $1; $in_desc = 1; next; }
  if ($in_desc && /^\s+(.*)$/) { my $l = $1; next if $l eq "."; $desc .= " $l"; next; }
  $in_desc = 0;
  END {
    flush();
    for my $n (sort keys %docs) {
      my $d = $docs{$n}; $d =~ s/\s+/ /g; $d =~ s/^ | $//g;
      printf "{\"title\": \"%s\", \"link\": \"https://packages.debian.org/%s/%s\", \"snippet\": \"%s\"}\n",
             esc($n), $codename, esc($n), esc($d);
    }
  }
' "$codename" > "$tmp"
count=$(wc -l < "$tmp")
if [ "$count" -eq 0 ]; then
  rm -f "$tmp"
  echo "build-debian-corpus: the package index is empty; run 'apt-get update' first" >&2
  exit 1
fi
mv "$tmp" "$out"
echo "build-debian-corpus: wrote $count documents ($(du -h "$out" | cut -f1)) to $out"
