#pragma once

#include <QByteArray>

namespace keylens::test {

// A file built by hand (tests/fixtures/rdb/*.rdbhex, by name): hex bytes, each line's comment ('#') saying what
// they are. Empty when the file is missing or a token is no byte (a typo fails the test that reads it).
QByteArray handBuiltRdb(const char* name);

} // namespace keylens::test
