#include "lint/KeyRules.h"

#include "keyspace/KeyEscape.h"
#include "keyspace/KeyPath.h"
#include "lint/AddressGroups.h"
#include "lint/Characters.h"
#include "lint/OverlayRules.h"
#include "lint/SegmentShape.h"
#include "lint/SegmentUnits.h"

#include <QString>
#include <QVarLengthArray>

#include <algorithm>
#include <optional>

namespace keylens::lint {

namespace {

// A segment with its shape and glued id, classified once per key: every rule below asks about them.
struct Segment
{
    QByteArrayView text;
    Shape shape = Shape::Word;
    bool plainWord = false; // lower-case letters and digits (SegmentClass): no glued id, separator or capital in it
    GluedId glued;

    Segment() = default; // for QVarLengthArray
    Segment(QByteArrayView segment, SegmentClass known)
        : text(segment)
        , shape(known.shape)
        , plainWord(known.plainWord)
    {
        if (plainWord)
            return;
        // `users/104/avatar_url` has a token's characters, but it is words and ids joined by another delimiter.
        if (shape == Shape::Token && segmentUnits(segment).size() > 1)
            shape = Shape::Word;
        glued = lint::isId(shape) ? GluedId{} : gluedIdOf(segment); // an id has no words to glue to
    }
    bool isId() const { return lint::isId(shape); }
};

// Keys are checked as they arrive, a million a few seconds: their segments and word parts are kept on
// the stack, and nothing is allocated for a key without findings.
using Segments = QVarLengthArray<Segment, 12>;
using WordParts = QVarLengthArray<QByteArrayView, 8>;

// The word parts of a segment: split on word separators, without a glued id at its end.
WordParts wordParts(const Segment& segment)
{
    if (segment.isId())
        return {};
    QByteArrayView words = segment.text;
    if (isId(segment.glued.shape))
        words = segment.glued.prefix.chopped(1);
    WordParts parts;
    qsizetype start = 0;
    for (qsizetype i = 0; i <= words.size(); ++i) {
        if (i == words.size() || isWordSeparator(words[i])) {
            if (i > start)
                parts.push_back(words.sliced(start, i - start));
            start = i + 1;
        }
    }
    return parts;
}

// Spaces, quotes, commas, '/', '@', '?', '&', '=' and control bytes: they need quoting in a shell, a URL or a
// CSV file. Bytes from 0x80 are UTF-8 (checked whole by binary-key).
bool isSpecialCharacter(char c)
{
    switch (c) {
    case ' ':
    case '"':
    case '\'':
    case ',':
    case '/':
    case '@':
    case '?':
    case '&':
    case '=':
    case 0x7f:
        return true;
    default:
        return static_cast<unsigned char>(c) < 0x20;
    }
}

bool isPlaceholderWord(QByteArrayView word, bool wholeKey);

// A '%' and two hex digits: a byte escaped for a URL.
bool isPercentEncoded(QByteArrayView segment)
{
    for (qsizetype at = segment.indexOf('%'); at >= 0 && at + 2 < segment.size(); at = segment.indexOf('%', at + 1)) {
        if (isHexDigit(segment[at + 1]) && isHexDigit(segment[at + 2]))
            return true;
    }
    return false;
}

// Words and ids joined by inner delimiters in one segment, a word before an id (`search/3/hour`,
// `user_17_profile`): not `2024-03-10` (one id) nor `dark_mode` (words only).
bool hasIdBetweenWords(QByteArrayView segment)
{
    if (std::none_of(segment.begin(), segment.end(), isInnerDelimiter))
        return false;
    const SegmentUnits units = segmentUnits(segment);
    bool word = false;
    for (const SegmentUnit& unit : units) {
        if (unit.folded.isNull())
            word = true;
        else if (word)
            return true;
    }
    return false;
}

// A segment that is a placeholder word with only ids after it, whatever joins them: `tmp_14`, `test-3`, `foo.2`.
// `test_results` is not: a real word follows.
bool isPlaceholderSegment(QByteArrayView segment, bool wholeKey)
{
    const auto separator = std::find_if(segment.begin(), segment.end(), isWordSeparator);
    if (separator == segment.end())
        return isPlaceholderWord(segment, wholeKey);
    const QByteArrayView head = segment.first(separator - segment.begin());
    for (const SegmentUnit& unit : segmentUnits(segment.sliced(head.size() + 1))) {
        if (unit.folded.isNull())
            return false;
    }
    return isPlaceholderWord(head, true); // a word and its number are the whole name
}

// The first unit of a segment is an id (`123`, `192.0.2.7` of `192.0.2.7/search`), where a word would say what the
// key is: `users/104/avatar_url` and `user_1792_profile` start with a word.
bool startsWithId(const Segment& segment)
{
    if (segment.isId())
        return true;
    if (std::none_of(segment.text.begin(), segment.text.end(), isInnerDelimiter))
        return false;
    return isId(shapeOf(segmentUnits(segment.text).front().text));
}

bool isPlaceholderWord(QByteArrayView word, bool wholeKey)
{
    qsizetype letters = word.size();
    while (letters > 0 && isDigit(word[letters - 1]))
        --letters; // key1, test2
    // Asked of every key's first segment: the names below are 3 to 9 letters (`mycounter`) and start with a letter,
    // so most words are told apart without lower-casing or comparing them.
    if (letters < 3 || letters > 9 || !isLetter(word.front()))
        return false;
    const LowerCase lower(word.first(letters));
    const QByteArrayView stem = lower.view();
    static const std::vector<QByteArrayView> names = {"key",   "test", "foo", "bar",   "baz",    "qux",     "data",
                                                      "value", "asdf", "xxx", "dummy", "sample", "example", "demo"};
    if (std::find(names.begin(), names.end(), stem) != names.end())
        return true;
    // The names of the Redis documentation's examples: mykey, mylist, myhash, myzset…
    static const std::vector<QByteArrayView> examples = {"key",    "list",   "hash",    "set",  "zset",
                                                         "stream", "string", "counter", "value"};
    if (stem.startsWith("my") && std::find(examples.begin(), examples.end(), stem.sliced(2)) != examples.end())
        return true;
    // `tmp` and `temp` are proper namespaces for data that expires; as a whole key they say nothing.
    return wholeKey && (stem == "tmp" || stem == "temp");
}

// The key-level rules, looked up by id once: a key may add several findings, a million keys a few seconds.
struct KeyLevelRules
{
    const RuleInfo* binaryKey = findRule("binary-key");
    const RuleInfo* crypticAbbreviation = findRule("cryptic-abbreviation");
    const RuleInfo* deepNesting = findRule("deep-nesting");
    const RuleInfo* delimiter = findRule("delimiter");
    const RuleInfo* emptySegment = findRule("empty-segment");
    const RuleInfo* idFirst = findRule("id-first");
    const RuleInfo* keyLength = findRule("key-length");
    const RuleInfo* midKeyId = findRule("mid-key-id");
    const RuleInfo* missingTtl = findRule("missing-ttl");
    const RuleInfo* noNamespace = findRule("no-namespace");
    const RuleInfo* placeholderName = findRule("placeholder-name");
    const RuleInfo* specialCharacters = findRule("special-characters");
    const RuleInfo* timestampInKey = findRule("timestamp-in-key");
    const RuleInfo* unknownNamespace = findRule("unknown-namespace");
    const RuleInfo* uppercase = findRule("uppercase");
};
const KeyLevelRules& keyLevelRules()
{
    static const KeyLevelRules rules;
    return rules;
}

// A detail that is some of the key's bytes, not copied: the findings are read while the key is, and Linter::record
// copies the few details it keeps as examples. A copy per finding was a million allocations per million keys.
QByteArray keyBytes(QByteArrayView text)
{
    return QByteArray::fromRawData(text.data(), text.size());
}

class Checker
{
public:
    Checker(QByteArrayView key, const keyspace::KeyInfo& info, const Profile& profile,
            std::span<const SegmentClass> classes)
        : m_key(key)
        , m_info(info)
        , m_profile(profile)
        , m_knownClasses(classes)
    {}

    KeyFindings run()
    {
        checkLength();
        if (!keyspace::isPrintableUtf8(m_key)) {
            add(m_rules.binaryKey, {}); // word rules say nothing useful about bytes
            return std::move(m_findings);
        }
        splitSegments();
        checkStructure();
        for (qsizetype i = 0; i < m_segments.size(); ++i)
            checkSegment(i);
        checkTimestamps();
        checkValue();
        return std::move(m_findings);
    }

private:
    // The key's segments, an IPv6 address that its ':' split kept whole: its `::` is no empty segment and its groups
    // are no levels (`login_fail_ip:2001:db8::1` is two segments, an id after a word).
    void splitSegments()
    {
        QVarLengthArray<QByteArrayView, 12> views;
        keyspace::forEachSegment(m_key, m_profile.delimiters,
                                 [&](QByteArrayView segment, char) { views.append(segment); });
        const std::span<const QByteArrayView> all(views.data(), std::size_t(views.size()));
        const bool classesKnown = m_knownClasses.size() == std::size_t(views.size());
        for (qsizetype i = 0; i < views.size(); ++i) {
            const qsizetype end = m_profile.delimiters.contains(':') ? addressRunEnd(all, i) : -1;
            if (end < 0) {
                // Unknown, a word is looked at whole: the shortcut for plain words is only worth a table's lookup.
                m_segments.emplace_back(views[i], classesKnown ? m_knownClasses[std::size_t(i)]
                                                               : SegmentClass{shapeOf(views[i])});
                continue;
            }
            const char* from = views[i].data();
            const QByteArrayView run(from, views[end].data() + views[end].size() - from);
            m_segments.emplace_back(run, SegmentClass{shapeOf(run)});
            if (tailPiece(views[i]).size() == views[i].size() && headPiece(views[end]).size() == views[end].size()) {
                m_segments.back().shape = Shape::Ip; // the whole segment is the address
                m_segments.back().glued = {};
            }
            i = end;
        }
    }

    void add(const RuleInfo* rule, QByteArray detail, std::optional<Severity> severity = {})
    {
        Q_ASSERT(rule);
        const bool seen = std::any_of(m_findings.begin(), m_findings.end(),
                                      [&](const KeyFinding& finding) { return finding.rule == rule; });
        if (!seen && m_profile.isEnabled(*rule))
            m_findings.push_back(
                {rule, m_profile.severityOf(*rule, severity.value_or(rule->severity)), std::move(detail)});
    }

    void checkLength()
    {
        const auto length = std::uint64_t(m_key.size());
        if (const std::optional<Severity> severity = keyLengthSeverity(length, m_profile))
            add(m_rules.keyLength, QByteArray::number(length) + " bytes", *severity);
    }

    void checkStructure()
    {
        const bool hasDelimiter = m_segments.size() > 1;
        if (hasDelimiter &&
            std::any_of(m_segments.begin(), m_segments.end(), [](const Segment& s) { return s.text.isEmpty(); }))
            add(m_rules.emptySegment, {});
        if (std::size_t(m_segments.size()) > m_profile.maxSegments)
            add(m_rules.deepNesting, QByteArray::number(qsizetype(m_segments.size())) + " levels");

        const Segment& first = m_segments.front();
        if (startsWithId(first))
            add(m_rules.idFirst, keyBytes(first.text));
        if (m_segments.size() == 1 && isPlaceholderSegment(first.text, true))
            add(m_rules.placeholderName, keyBytes(first.text));
        else if (hasDelimiter && isPlaceholderWord(first.text, false))
            add(m_rules.placeholderName, keyBytes(first.text));

        if (!hasDelimiter) {
            // Words joined by another separator (`user_123_profile`, `ORDER-DETAIL-10086`): a hierarchy
            // without the delimiter. A bare word or id is a key without a namespace.
            if (wordParts(first).size() > 1 || isId(first.glued.shape))
                add(m_rules.delimiter, keyBytes(first.text));
            else if (!first.isId() && m_findings.empty())
                add(m_rules.noNamespace, keyBytes(first.text));
        } else {
            for (const Segment& segment : m_segments) {
                // `userSettings_123` inside a colon key: an id glued on with another separator; `LIMITER/<ip>/hour`
                // as one segment: a hierarchy of its own under another delimiter.
                if (!segment.isId() && (isId(segment.glued.shape) || hasIdBetweenWords(segment.text))) {
                    add(m_rules.delimiter, keyBytes(segment.text));
                    break;
                }
            }
        }
        if (hasDelimiter && !m_profile.allowedNamespaces.empty() &&
            std::find(m_profile.allowedNamespaces.begin(), m_profile.allowedNamespaces.end(), first.text) ==
                m_profile.allowedNamespaces.end())
            add(m_rules.unknownNamespace, keyBytes(first.text));
        for (qsizetype i = 1; i + 1 < m_segments.size(); ++i) {
            if (m_segments[i].isId()) {
                add(m_rules.midKeyId, keyBytes(m_segments[i].text)); // the profile decides whether it counts
                break;
            }
        }
    }

    void checkSegment(qsizetype index)
    {
        const Segment& segment = m_segments[index];
        if (segment.plainWord)
            return; // one lower-case part of three bytes or more, nothing special: none of the rules below fires
        // A percent-encoded value (an e-mail address, a URL: `li.wei%2B7%40example.com`) is data a program escaped, not
        // words a person chose: its letters are not judged as words.
        const WordParts parts = isPercentEncoded(segment.text) ? WordParts{} : wordParts(segment);
        for (const QByteArrayView part : parts) {
            const bool letters = std::all_of(part.begin(), part.end(), isLetter);
            // Codes that mix letters and digits (`ABC123`, `v2`) are not words to spell-check.
            if (letters && std::any_of(part.begin(), part.end(), isUpper))
                add(m_rules.uppercase, keyBytes(segment.text));
            if (letters && part.size() <= 2 && m_segments.size() > 1 && !m_profile.isAlias(LowerCase(part).view()))
                add(m_rules.crypticAbbreviation, keyBytes(part));
        }
        if (!segment.isId() && std::any_of(segment.text.begin(), segment.text.end(), isSpecialCharacter)) {
            // An id inside the segment keeps its own characters, as a segment that is one does: the '@' of
            // `b_<email>_settings`. Those between its parts, and those of its words, count.
            const SegmentUnits units = segmentUnits(segment.text);
            const bool special = std::any_of(units.begin(), units.end(), [](const SegmentUnit& unit) {
                return (unit.delimiterAfter != 0 && isSpecialCharacter(unit.delimiterAfter)) ||
                       (unit.folded.isNull() && std::any_of(unit.text.begin(), unit.text.end(), isSpecialCharacter));
            });
            if (special)
                add(m_rules.specialCharacters, keyBytes(segment.text));
        }
    }

    void checkTimestamps()
    {
        QByteArray found;
        for (qsizetype i = 0; i < m_segments.size() && found.isEmpty(); ++i) {
            const Segment& segment = m_segments[i];
            const Shape shape = segment.shape;
            const Shape glued = segment.glued.shape;
            if (shape == Shape::Date || shape == Shape::Epoch || glued == Shape::Date || glued == Shape::Epoch)
                found = keyBytes(segment.text);
            // A date split over levels: `log:2025:01:15:…`
            else if (i + 1 < m_segments.size() && isDateSplitAcross(segment.text, m_segments[i + 1].text)) {
                const QByteArrayView next = m_segments[i + 1].text; // both, with the key's own delimiter between
                found = keyBytes(QByteArrayView(segment.text.data(), next.data() + next.size() - segment.text.data()));
            }
        }
        if (found.isEmpty())
            return;
        add(m_rules.timestampInKey, found, timestampSeverity(m_info.expiresAtMs != keyspace::NoExpiry));
    }

    void checkValue()
    {
        if (m_segments.size() < 2 || m_info.expiresAtMs != keyspace::NoExpiry)
            return;
        const LowerCase top(m_segments.front().text);
        if (m_profile.isVolatileNamespace(top.view()))
            add(m_rules.missingTtl, top.view().toByteArray().append(m_key[m_segments.front().text.size()]));
    }

    QByteArrayView m_key;
    const keyspace::KeyInfo& m_info;
    const Profile& m_profile;
    std::span<const SegmentClass> m_knownClasses;
    const KeyLevelRules& m_rules = keyLevelRules();
    Segments m_segments;
    KeyFindings m_findings;
};

} // namespace

std::optional<Severity> keyLengthSeverity(std::uint64_t length, const Profile& profile)
{
    if (length > profile.keyLengthError)
        return Severity::Error;
    if (length > profile.keyLengthWarning)
        return Severity::Warning;
    if (length > profile.keyLengthInfo)
        return Severity::Info;
    return std::nullopt;
}

Severity timestampSeverity(bool expires)
{
    return expires ? Severity::Info : Severity::Warning;
}

KeyFindings checkKey(QByteArrayView key, const keyspace::KeyInfo& info, const Profile& profile,
                     std::span<const SegmentClass> classes)
{
    if (profile.isIgnored(key))
        return {};
    return checkKeyNotIgnored(key, info, profile, classes);
}

KeyFindings checkKeyNotIgnored(QByteArrayView key, const keyspace::KeyInfo& info, const Profile& profile,
                               std::span<const SegmentClass> classes)
{
    return Checker(key, info, profile, classes).run();
}

} // namespace keylens::lint
