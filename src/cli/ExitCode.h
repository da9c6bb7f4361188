#pragma once

namespace keylens::cli {

// keylens-cli's exit codes; scripts depend on them.
enum ExitCode : int {
    ExitOk = 0,
    ExitFailure = 1, // the scan stopped early (connection lost mid-scan, a denied SCAN); the partial report is printed
    ExitUsage = 2,   // bad arguments
    ExitConnection = 3,    // could not connect or log in; message on stderr, nothing on stdout
    ExitInterrupted = 130, // Ctrl-C: the partial report is printed
};

} // namespace keylens::cli
