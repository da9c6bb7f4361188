#pragma once

#include <QString>

namespace keylens::models {

// What changed between two texts, line by line, for a person: the server's version against the user's, as a unified
// diff body ("  " same, "- " only on the server, "+ " only in the edit). Texts of more than `maxLines` lines are not
// aligned (the table would be too big): both are then shown whole, one after the other.
QString lineDiff(const QString& server, const QString& mine, int maxLines = 3000);

} // namespace keylens::models
