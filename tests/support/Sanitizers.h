#pragma once

// The tests and keylens-cli are built with the same flags (scripts/run-sanitizers.sh builds both with ASan). Under
// AddressSanitizer, which reserves terabytes of address space for its shadow memory, an address-space limit would stop
// a child before it starts: tests that bound a child's memory that way skip the bound there.
namespace keylens::test {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool builtWithAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool builtWithAddressSanitizer = true;
#else
inline constexpr bool builtWithAddressSanitizer = false;
#endif
#else
inline constexpr bool builtWithAddressSanitizer = false;
#endif

} // namespace keylens::test
