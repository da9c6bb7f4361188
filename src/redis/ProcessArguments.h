#pragma once

namespace keylens::redis {

// The process's own argv, as `ps` and /proc/PID/cmdline show it to every user of the machine.
//
// main() hands it over before anything else; once the command line is parsed, hidePasswords()
// overwrites the values of -a/--pass and the user-info of redis:// and unix:// URIs in place, so a
// password given on the command line is visible for the moment it takes to parse, not for the whole
// scan. Qt keeps its own copy of the arguments, so nothing else notices.
void rememberProcessArguments(int argc, char** argv);

// Returns whether a password was found (and hidden), so the caller can warn as redis-cli does.
bool hidePasswordsInProcessArguments();

} // namespace keylens::redis
