#pragma once

#include <QByteArrayView>

#include <cstdint>
#include <optional>
#include <span>

namespace keylens::lint {

enum class Severity : std::uint8_t { Info, Warning, Error };
QByteArrayView severityName(Severity severity); // "info", "warning", "error"
std::optional<Severity> severityFromName(QByteArrayView name);

// A naming rule: its stable id (an interface: profiles, reports and SARIF name rules by it), its default
// severity, why it matters and what to do, in one line each.
struct RuleInfo
{
    const char* id;
    Severity severity;
    const char* rationale;
    const char* fix;
};

// Every rule this build knows, in a stable order. A rule's index in it is its bit in the store's
// per-key finding mask (keyspace::Keyspace::findingRules), so there are at most MaximumRules.
std::span<const RuleInfo> allRules();
inline constexpr std::size_t MaximumRules = 26;
const RuleInfo* findRule(QByteArrayView id);
std::size_t ruleIndex(const RuleInfo& rule);
// A rule about how keys are named, as opposed to what they cost (big-string, big-collection) or how they
// expire (missing-ttl, expiry-avalanche). A library's keys are exempt from the naming rules: their
// layout is the library's, not the team's (see LibraryLayouts.h).
bool isNamingRule(const RuleInfo& rule);

} // namespace keylens::lint
