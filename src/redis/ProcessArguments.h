#pragma once

namespace keylens::redis {

// The process's own argv, as `ps` and /proc/PID/cmdline show it to every user of the machine.
//
// main() calls scrubProcessArguments() before anything else and gives Qt the copy it returns. When the arguments hold
// a password (-a/--pass and their forms, the user-info of redis://, rediss:// and unix:// URIs), the original argument
// area is rewritten at once as one title, `keylens-cli scan -a *** redis://***@host:6379`: every secret becomes the
// same three stars whatever its length, and the bytes after the title are zeroed (the kernel shows a rewritten
// area up to its first NUL). The process is then also kept out of core dumps (keepSecretsOutOfCoreDumps).
//
// What remains visible: the arguments as exec() gave them, for the time the dynamic loader takes before main().
char** scrubProcessArguments(int argc, char** argv);

// Whether scrubProcessArguments() found a password, so the caller can warn as redis-cli does.
bool passwordWasOnCommandLine();

// From now on, this process writes no core dump, and other users' processes cannot read its memory
// (PR_SET_DUMPABLE 0): a password it holds must not end up in a core file. Called for every password the process
// receives, however it came (the command line, the environment, a prompt, the keychain).
void keepSecretsOutOfCoreDumps();

} // namespace keylens::redis
