#include "lint/Profile.h"

#include <algorithm>

namespace keylens::lint {

namespace {

bool contains(const std::vector<QByteArray>& words, QByteArrayView word)
{
    return std::any_of(words.begin(), words.end(), [&](const QByteArray& candidate) { return candidate == word; });
}

} // namespace

bool Profile::isEnabled(const RuleInfo& rule) const
{
    return rules[ruleIndex(rule)].enabled;
}

Severity Profile::severityOf(const RuleInfo& rule, Severity computed) const
{
    return rules[ruleIndex(rule)].severity.value_or(computed);
}

bool Profile::isIgnored(QByteArrayView key) const
{
    return std::any_of(ignore.begin(), ignore.end(), [&](const keyspace::KeyGlob& glob) { return glob.matches(key); });
}

bool Profile::isVolatileNamespace(QByteArrayView lowerCaseWord) const
{
    return contains(volatileNamespaces, lowerCaseWord);
}

bool Profile::isAlias(QByteArrayView lowerCaseWord) const
{
    return contains(aliases, lowerCaseWord);
}

std::optional<std::size_t> Profile::synonymGroupOf(QByteArrayView lowerCaseWord) const
{
    for (std::size_t group = 0; group < synonymGroups.size(); ++group) {
        if (contains(synonymGroups[group], lowerCaseWord))
            return group;
    }
    return std::nullopt;
}

std::optional<Profile> builtInProfile(QByteArrayView name)
{
    Profile profile;
    profile.name = QString::fromLatin1(name.toByteArray());
    // `<namespace>:<entity>:<id>:<attribute>` is the default's standard, so ids mid-key are fine there.
    profile.rules[ruleIndex(*findRule("mid-key-id"))].enabled = false;
    if (name == "default")
        return profile;
    if (name == "strict") {
        profile.rules[ruleIndex(*findRule("mid-key-id"))].enabled = true;
        profile.keyLengthWarning = 44; // anything above the compact 44 bytes is a warning
        return profile;
    }
    return std::nullopt;
}

std::vector<QByteArray> builtInProfileNames()
{
    return {"default", "strict"};
}

} // namespace keylens::lint
