#pragma once

#include "keyspace/KeyGlob.h"

#include <QByteArray>
#include <QByteArrayView>

namespace keylens::keyspace {

class Keyspace;

// What the filter box's text means. Auto picks one of the others from the text: an existing key is that key,
// text with a glob character (`*`, `?`, `[`) is a glob as SCAN MATCH reads it, anything else a prefix.
enum class FilterMode { Auto, Exact, Prefix, Glob };

struct KeyFilter
{
    FilterMode mode = FilterMode::Auto; // never Auto: the mode that applies
    KeyGlob glob;                       // empty: no filter
    QByteArray key;                     // the key an exact filter names, when the store has it
};

// The filter for the box's text, the mode the user chose (Auto: see FilterMode) and the case. The store may be
// null or still growing: Auto then takes only keys it has seen for exact ones.
KeyFilter resolveFilter(QByteArrayView text, FilterMode wanted, KeyGlob::Case sensitivity, const Keyspace* store);

// The MATCH pattern for a search among a collection's elements: text with a glob character is that glob, any
// other text is looked for anywhere in the element (`*text*`, its own glob characters escaped).
QByteArray elementMatchPattern(QByteArrayView text);

// A mode's name as the filter box shows it ("exact key", "prefix", "glob").
QByteArrayView filterModeName(FilterMode mode);

} // namespace keylens::keyspace
