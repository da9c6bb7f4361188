#include "live/KeyPattern.h"

#include "lint/KeyPattern.h"

namespace keylens::live {

QByteArray patternOfKey(QByteArrayView key, const keyspace::Delimiters& delimiters)
{
    return lint::patternOfKey(key, delimiters);
}

} // namespace keylens::live
