#include "lint/Spelling.h"

#include "keyspace/KeyPath.h"
#include "lint/Characters.h"
#include "lint/SegmentShape.h"

#include <algorithm>
#include <vector>

namespace keylens::lint {

namespace {

bool isWordSeparator(char c)
{
    return c == '_' || c == '-' || c == '.' || c == '/' || c == '|';
}

bool isLower(char c)
{
    return c >= 'a' && c <= 'z';
}

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

Spelling spellingOf(QByteArrayView key, char delimiter)
{
    Spelling spelling;
    spelling.pattern.reserve(key.size());
    std::vector<QByteArray> words;
    bool firstSegment = true;
    keyspace::forEachSegment(key, delimiter, [&](QByteArrayView segment) {
        if (!firstSegment)
            spelling.pattern += delimiter;
        firstSegment = false;
        if (const Shape shape = shapeOf(segment); isId(shape)) {
            spelling.pattern += placeholder(shape).toByteArray();
            words.push_back(placeholder(shape).toByteArray());
            return;
        }
        forEachPart(segment, [&](QByteArrayView part, bool separator) {
            if (separator) {
                spelling.pattern += part.toByteArray();
                return;
            }
            if (const Shape shape = shapeOf(part); isId(shape)) {
                spelling.pattern += placeholder(shape).toByteArray();
                words.push_back(placeholder(shape).toByteArray());
                return;
            }
            spelling.pattern += part.toByteArray();
            forEachHump(part, [&](QByteArrayView word) { words.push_back(word.toByteArray().toLower()); });
        });
    });
    std::sort(words.begin(), words.end());
    for (const QByteArray& word : words) {
        if (!spelling.words.isEmpty())
            spelling.words += ' ';
        spelling.words += word;
    }
    return spelling;
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
            out += char(c - 'A' + 'a');
        } else {
            out += c;
        }
    }
    return out;
}

} // namespace keylens::lint
