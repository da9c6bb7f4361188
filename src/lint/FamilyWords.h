#pragma once

#include "keyspace/Delimiters.h"
#include "lint/SegmentShape.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QVarLengthArray>

namespace keylens::lint {

// The words and ids a key is made of, whatever joins them: what tells which family a key belongs to
// (FamilyConventions.h). Every library and every part of an application joins its words its own way
// (`PHPREDIS_SESSION:<id>`, `sf_s<id>`, `geo|<lat>,<lon>`, `userSettings_17`), so the words are taken apart from
// their delimiters and their case: a word unit is cut into its runs of letters, lower-cased and split where a
// camel-cased word starts another (`userSettings` is user, settings); a run of digits is `<int>`; an id
// (SegmentUnits.h: a UUID, a token, an address, `SKU<int>`) is its placeholder. So `User:17:profile`, `user_17_profile`
// and `user17profile` are the same words: one family, whose keys may break its convention one by one.
struct FamilyWord
{
    QByteArray text; // lower case, or an id's placeholder
    bool id = false;
    qsizetype start = 0; // its offset in the text it was read from
    qsizetype end = 0;   // the offset just past it
};
using FamilyWords = QVarLengthArray<FamilyWord, 8>;

// Appends the words of one segment whose shape is known (shapeOf, or SegmentShapes), until `out` holds `limit`.
// Offsets are counted from `offset` (the segment's start in its key).
void appendFamilyWords(QByteArrayView segment, Shape shape, FamilyWords& out, qsizetype limit, qsizetype offset = 0);
// The first words of a whole key, split on the store's delimiters first.
FamilyWords familyWordsOfKey(QByteArrayView key, const keyspace::Delimiters& delimiters, qsizetype limit);

} // namespace keylens::lint
