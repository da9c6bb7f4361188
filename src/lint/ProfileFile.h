#pragma once

#include "lint/Profile.h"

#include <QByteArray>
#include <QString>

#include <optional>

namespace keylens::lint {

// A profile by name or by file: a built-in name (`default`, `strict`) or the path of a JSON profile
// file. On failure, nothing and `error` says why: for a file, the file, the line and the field
// ("acme.json:7: rules.uppercase.severity: takes error, warning or info, not \"high\"").
std::optional<Profile> loadProfile(const QString& nameOrPath, QString* error);

// Parses a profile file's text. `source` names it in errors. The format, with every field optional:
//   { "extends": "default" | "strict",            the profile it starts from (default: default)
//     "name": "acme",                             shown in reports (default: the file's base name)
//     "rules": { "<rule id>": false | true | { "enabled": bool, "severity": "error|warning|info",
//                                              <threshold>: number, … }, … },
//     "namespaces": { "allowed": [..], "volatile": [..], "ignore": ["bull:*", …] },
//     "aliases": { "db": "database", … },         abbreviations that are not cryptic
//     "synonyms": [["detail", "info"], …],
//     "environments": ["prod", "staging", …],
//     "exempt_libraries": true,                   false: the naming rules judge libraries' keys too
//     "fold_families": true,                      false: a family's own convention is judged key by key
//     "library_catalogue": true }                 false: no library named, roles from the keys' own evidence
// Lists replace the extended profile's. The thresholds per rule: key-length {info, warning, error},
// deep-nesting {max_segments}, expiry-avalanche {window_seconds, share, min_keys},
// data-in-key {min_keys, max_values}. resources/profiles/example.json shows each.
std::optional<Profile> parseProfile(const QByteArray& text, const QString& source, QString* error);

} // namespace keylens::lint
