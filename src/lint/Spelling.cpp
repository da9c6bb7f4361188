#include "lint/Spelling.h"

#include "keyspace/KeyPath.h"
#include "lint/Characters.h"
#include "lint/SegmentShape.h"

#include <algorithm>
#include <vector>

namespace keylens::lint {

namespace {

// Calls onPart(part, isSeparator) for the runs of a segment: words and ids between word separators.
template<typename Callback> void forEachPart(QByteArrayView segment, Callback&& onPart)
{
    qsizetype start = 0;
    for (qsizetype i = 0; i <= segment.size(); ++i) {
        if (i == segment.size() || isWordSeparator(segment[i])) {
            if (i > start)
                onPart(segment.sliced(start, i - start), false);
            if (i < segment.size())
                onPart(segment.sliced(i, 1), true);
            start = i + 1;
        }
    }
}

// Splits a word on camelCase humps (`userSettings` -> user, Settings) and calls onWord for each.
template<typename Callback> void forEachHump(QByteArrayView word, Callback&& onWord)
{
    qsizetype start = 0;
    for (qsizetype i = 1; i <= word.size(); ++i) {
        if (i == word.size() || (isLower(word[i - 1]) && isUpper(word[i]))) {
            onWord(word.sliced(start, i - start));
            start = i;
        }
    }
}

} // namespace

QByteArray wordsOf(QByteArrayView pattern, char delimiter)
{
    std::vector<QByteArray> words;
    std::vector<QByteArray> placeholders; // where an id sits is a spelling, which words it names is not
    keyspace::forEachSegment(pattern, delimiter, [&](QByteArrayView segment) {
        bool said = false;
        forEachPart(segment, [&](QByteArrayView part, bool separator) {
            if (!separator) // a placeholder is one hump, and stays as it is
                forEachHump(part, [&](QByteArrayView word) {
                    (word.startsWith('<') ? placeholders : words).push_back(word.toByteArray().toLower());
                    said = true;
                });
        });
        // A level of punctuation only (`stats:uv:<date>:/`, the page "/") is a name of its own: a key with it is
        // another key than the one without, not a spelling of it.
        if (!said && !segment.isEmpty())
            words.push_back(segment.toByteArray());
    });
    std::sort(placeholders.begin(), placeholders.end());
    words.insert(words.end(), placeholders.begin(), placeholders.end());
    QByteArray joined;
    for (const QByteArray& word : words) {
        if (!joined.isEmpty())
            joined += ' ';
        joined += word;
    }
    return joined;
}

std::uint64_t wordsHashOf(QByteArrayView spelledSegment)
{
    std::uint64_t sum = 0;
    forEachPart(spelledSegment, [&](QByteArrayView part, bool separator) {
        if (separator)
            return;
        forEachHump(part, [&](QByteArrayView word) {
            std::uint64_t hash = 0xcbf29ce484222325u; // FNV-1a over the lower-cased word
            for (const char c : word) {
                hash ^= std::uint8_t(toLower(c));
                hash *= 0x100000001b3u;
            }
            // Mixed (splitmix64's finaliser) so that sums of several words do not collide by arithmetic.
            hash = (hash ^ (hash >> 30)) * 0xbf58476d1ce4e5b9u;
            hash = (hash ^ (hash >> 27)) * 0x94d049bb133111ebu;
            sum += hash ^ (hash >> 31);
        });
    });
    return sum;
}

bool isConventionalSpelling(QByteArrayView pattern, char delimiter)
{
    bool inPlaceholder = false;
    for (const char c : pattern) {
        if (c == '<')
            inPlaceholder = true;
        else if (c == '>')
            inPlaceholder = false;
        else if (!inPlaceholder && (isUpper(c) || (c != delimiter && isWordSeparator(c))))
            return false;
    }
    return true;
}

QByteArray conventionalSpelling(QByteArrayView pattern, char delimiter)
{
    QByteArray out;
    out.reserve(pattern.size() + 4);
    bool inPlaceholder = false;
    for (qsizetype i = 0; i < pattern.size(); ++i) {
        const char c = pattern[i];
        if (c == '<')
            inPlaceholder = true;
        else if (c == '>')
            inPlaceholder = false;
        if (inPlaceholder || c == '>') {
            out += c;
        } else if (c == delimiter || isWordSeparator(c)) {
            if (!out.endsWith(delimiter))
                out += delimiter;
        } else if (isUpper(c)) {
            if (i > 0 && isLower(pattern[i - 1]))
                out += delimiter; // a camelCase hump starts a word
            out += toLower(c);
        } else {
            out += c;
        }
    }
    return out;
}

std::optional<QByteArray> respell(QByteArrayView key, QByteArrayView target, char delimiter)
{
    // The key's pattern, level by level: its literal parts are the key's own bytes, so walking both side by side
    // finds each id between the literal before and the literal after its placeholder.
    QByteArray pattern;
    qsizetype start = 0;
    for (qsizetype i = 0; i <= key.size(); ++i) {
        if (i == key.size() || key[i] == delimiter) {
            const QByteArrayView segment = key.sliced(start, i - start);
            appendPatternOf(pattern, segment, shapeOf(segment));
            if (i < key.size())
                pattern += delimiter;
            start = i + 1;
        }
    }
    std::vector<std::pair<QByteArray, QByteArray>> ids; // placeholder, id
    qsizetype at = 0;                                   // in the key
    for (qsizetype p = 0; p < pattern.size();) {
        if (pattern[p] != '<') {
            if (at >= key.size() || key[at] != pattern[p])
                return std::nullopt;
            ++at, ++p;
            continue;
        }
        const qsizetype close = pattern.indexOf('>', p);
        if (close < 0)
            return std::nullopt;
        const QByteArray placeholder = pattern.mid(p, close - p + 1);
        p = close + 1;
        const qsizetype nextPlaceholder = pattern.indexOf('<', p);
        const QByteArray literal = pattern.mid(p, (nextPlaceholder < 0 ? pattern.size() : nextPlaceholder) - p);
        const qsizetype end = literal.isEmpty() ? key.size() : key.toByteArray().indexOf(literal, at);
        if (end < at)
            return std::nullopt;
        ids.emplace_back(placeholder, key.sliced(at, end - at).toByteArray());
        at = end;
    }
    if (at != key.size())
        return std::nullopt;
    QByteArray out;
    for (qsizetype p = 0; p < target.size();) {
        if (target[p] != '<') {
            out += target[p++];
            continue;
        }
        const qsizetype close = target.toByteArray().indexOf('>', p);
        if (close < 0)
            return std::nullopt;
        const QByteArray placeholder = target.sliced(p, close - p + 1).toByteArray();
        const auto id =
            std::find_if(ids.begin(), ids.end(), [&](const auto& entry) { return entry.first == placeholder; });
        if (id == ids.end())
            return std::nullopt;
        out += id->second;
        ids.erase(id);
        p = close + 1;
    }
    if (!ids.empty())
        return std::nullopt; // an id the target has no place for would be lost
    return out;
}

} // namespace keylens::lint
