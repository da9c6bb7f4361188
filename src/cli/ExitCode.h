#pragma once

namespace keylens::cli {

// keylens-cli's exit codes; scripts depend on them.
enum ExitCode : int {
    ExitOk = 0,
    ExitFailure = 1,       // the scan stopped early (connection lost mid-scan), the partial report is printed; or the
                           // report could not be written (a full disk), with a message and no partial --output file;
                           // or a bulk action or restore left keys failed, unknown or not attempted (see its summary)
    ExitUsage = 2,         // bad arguments, or an --output that cannot be written to
    ExitConnection = 3,    // could not connect, log in or read a first SCAN reply; message on stderr, nothing on stdout
    ExitNotConfirmed = 4,  // delete/expire/rename: the preview was not confirmed (no --yes, or a wrong answer); nothing
                           // was changed
    ExitInterrupted = 130, // Ctrl-C: the partial report is printed
};

} // namespace keylens::cli
