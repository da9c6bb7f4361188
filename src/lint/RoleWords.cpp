#include "lint/RoleWords.h"

#include "lint/Characters.h"

#include <QVarLengthArray>

#include <array>

namespace keylens::lint {

namespace {

struct Vocabulary
{
    LibraryRole role;
    std::initializer_list<const char*> words;
};

// In the order a key with two of them is judged by: the most specific first.
const std::array<Vocabulary, 6>& vocabularies()
{
    static const std::array<Vocabulary, 6> list{
        Vocabulary{LibraryRole::Queue, {"queue", "queues", "job", "jobs", "worker", "workers", "broker"}},
        Vocabulary{LibraryRole::Lock, {"lock", "locks", "mutex", "mutexes", "semaphore", "lease", "leases"}},
        Vocabulary{LibraryRole::Session, {"session", "sessions", "sess"}},
        Vocabulary{LibraryRole::RateLimit,
                   {"throttle", "throttles", "throttling", "ratelimit", "ratelimits", "ratelimiter", "limiter", "rl"}},
        Vocabulary{LibraryRole::Temporary,
                   {"tmp", "temp", "temporary", "transient", "token", "tokens", "otp", "nonce", "nonces", "csrf"}},
        Vocabulary{LibraryRole::Cache, {"cache", "caches", "cached", "caching"}},
    };
    return list;
}

using Words = QVarLengthArray<QByteArrayView, 16>;

// The words of a pattern's text: runs of letters, cut where camelCase starts a word, placeholders left out.
Words wordsOf(QByteArrayView text)
{
    Words words;
    qsizetype start = -1;
    const auto close = [&](qsizetype end) {
        if (start >= 0 && end > start)
            words.append(text.sliced(start, end - start));
        start = -1;
    };
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '<') { // a placeholder: `<int>`, `<hex>`
            close(i);
            const qsizetype end = text.indexOf('>', i);
            if (end < 0)
                break;
            i = end;
            continue;
        }
        if (!isLetter(c)) {
            close(i);
            continue;
        }
        if (start < 0) {
            start = i;
            continue;
        }
        // `userCache`: a capital after a small letter starts a word; `HTTPCache`: so does the last capital of a run
        // followed by a small letter.
        const bool camel = isUpper(c) && (isLower(text[i - 1]) ||
                                          (i + 1 < text.size() && isLower(text[i + 1]) && isUpper(text[i - 1])));
        if (camel) {
            close(i);
            start = i;
        }
    }
    close(text.size());
    return words;
}

std::optional<LibraryRole> roleOfWord(QByteArrayView lowerCase)
{
    for (const Vocabulary& vocabulary : vocabularies()) {
        for (const char* word : vocabulary.words) {
            if (lowerCase == word)
                return vocabulary.role;
        }
    }
    return std::nullopt;
}

int rank(LibraryRole role)
{
    int at = 0;
    for (const Vocabulary& vocabulary : vocabularies()) {
        if (vocabulary.role == role)
            return at;
        ++at;
    }
    return at;
}

} // namespace

std::optional<RoleWord> roleOfWords(QByteArrayView pattern)
{
    const Words words = wordsOf(pattern);
    std::optional<RoleWord> best;
    const auto consider = [&](LibraryRole role, QByteArrayView word) {
        if (!best || rank(role) < rank(best->role))
            best = RoleWord{role, word.toByteArray()};
    };
    for (qsizetype i = 0; i < words.size(); ++i) {
        const LowerCase lower(words[i]);
        if (const std::optional<LibraryRole> role = roleOfWord(lower.view()))
            consider(*role, words[i]);
        // `rate:limit`, `RateLimiter`, `rate_limits`: two words that say one thing.
        if (lower.view() == "rate" && i + 1 < words.size()) {
            const LowerCase next(words[i + 1]);
            if (next.view() == "limit" || next.view() == "limits" || next.view() == "limiter")
                consider(LibraryRole::RateLimit,
                         QByteArrayView(words[i].data(), words[i + 1].data() + words[i + 1].size() - words[i].data()));
        }
    }
    return best;
}

} // namespace keylens::lint
