#include "keyspace/KeyFilter.h"

#include "keyspace/Keyspace.h"

namespace keylens::keyspace {

namespace {

bool hasGlobCharacters(QByteArrayView text)
{
    return text.contains('*') || text.contains('?') || text.contains('[');
}

} // namespace

KeyFilter resolveFilter(QByteArrayView text, FilterMode wanted, KeyGlob::Case sensitivity, const Keyspace* store)
{
    KeyFilter filter;
    // Keys may start or end with spaces, but a filter box's stray space is far more likely.
    const QByteArray trimmed = text.trimmed().toByteArray();
    const auto isKey = [&] {
        if (!store)
            return false;
        const NodeId node = store->find(trimmed);
        return node != InvalidNode && store->isKey(node);
    };
    filter.mode = wanted;
    if (wanted == FilterMode::Auto)
        filter.mode = isKey() ? FilterMode::Exact : hasGlobCharacters(trimmed) ? FilterMode::Glob : FilterMode::Prefix;
    if (trimmed.isEmpty())
        return filter;
    switch (filter.mode) {
    case FilterMode::Exact:
        filter.glob = KeyGlob(KeyGlob::escaped(trimmed), sensitivity);
        if (isKey())
            filter.key = trimmed;
        break;
    case FilterMode::Prefix:
        filter.glob = KeyGlob(KeyGlob::escaped(trimmed).append('*'), sensitivity);
        break;
    case FilterMode::Glob:
    case FilterMode::Auto:
        filter.glob = KeyGlob(trimmed, sensitivity);
        break;
    }
    return filter;
}

QByteArray elementMatchPattern(QByteArrayView text)
{
    if (text.isEmpty() || hasGlobCharacters(text))
        return text.toByteArray();
    return QByteArray("*").append(KeyGlob::escaped(text)).append('*');
}

QByteArrayView filterModeName(FilterMode mode)
{
    switch (mode) {
    case FilterMode::Exact:
        return "exact key";
    case FilterMode::Prefix:
        return "prefix";
    case FilterMode::Glob:
        return "glob";
    case FilterMode::Auto:
        break;
    }
    return "auto";
}

} // namespace keylens::keyspace
