// SQUALL_UNDER_ADDRESS_SANITIZER is 1 in a build with AddressSanitizer (the debug preset),
// else 0: GCC says so with __SANITIZE_ADDRESS__, clang with __has_feature.
#pragma once

#if defined(__SANITIZE_ADDRESS__)
#define SQUALL_UNDER_ADDRESS_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SQUALL_UNDER_ADDRESS_SANITIZER 1
#endif
#endif
#ifndef SQUALL_UNDER_ADDRESS_SANITIZER
#define SQUALL_UNDER_ADDRESS_SANITIZER 0
#endif
