# Run at every build (cmake -P): writes OUTPUT, a header naming the checkout's commit, and rewrites it only when
# the commit changes, so that --version never names a stale commit and an unchanged checkout recompiles nothing.
# KEYLENS_GIT_COMMIT, when given, wins (a build from a tarball has no .git).
if(NOT KEYLENS_GIT_COMMIT)
  execute_process(COMMAND git -C "${SOURCE_DIR}" rev-parse --short=12 HEAD
                  OUTPUT_VARIABLE KEYLENS_GIT_COMMIT OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE failed)
  if(failed OR NOT KEYLENS_GIT_COMMIT)
    set(KEYLENS_GIT_COMMIT "unknown")
  else()
    execute_process(COMMAND git -C "${SOURCE_DIR}" diff --quiet HEAD -- RESULT_VARIABLE dirty ERROR_QUIET)
    if(dirty)
      string(APPEND KEYLENS_GIT_COMMIT "-modified")
    endif()
  endif()
endif()
file(WRITE "${OUTPUT}.new" "#pragma once\n#define KEYLENS_GIT_COMMIT \"${KEYLENS_GIT_COMMIT}\"\n")
configure_file("${OUTPUT}.new" "${OUTPUT}" COPYONLY)
file(REMOVE "${OUTPUT}.new")
