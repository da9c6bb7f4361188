#pragma once

#include "keyspace/Delimiters.h"

#include <QByteArray>
#include <QByteArrayView>

namespace keylens::live {

// The pattern of one key on its own (`user:1042:profile` → `user:<int>:profile`): each segment's ids folded by their
// shape (lint::patternOf). A scan's PatternTree also folds words that many siblings share; one key seen in passing
// has no siblings, so a live count keeps such words apart.
QByteArray patternOfKey(QByteArrayView key, const keyspace::Delimiters& delimiters);

} // namespace keylens::live
