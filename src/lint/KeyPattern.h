#pragma once

#include "keyspace/Delimiters.h"

#include <QByteArray>
#include <QByteArrayView>

namespace keylens::lint {

// The pattern of one key on its own (`user:1042:profile` → `user:<int>:profile`): each segment's ids folded by their
// shape (patternOf), an IPv6 address that ':' split folded whole. The notation the findings' groups and the live
// counts spell (live::patternOfKey); a scan's PatternTree also folds words that many siblings share.
QByteArray patternOfKey(QByteArrayView key, const keyspace::Delimiters& delimiters);

} // namespace keylens::lint
