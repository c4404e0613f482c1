# Installing squall without building it: `cmake --install` and the Debian package.
#
# `cmake --install build/release [--prefix DIR]` puts, under the GNUInstallDirs layout:
#   bin/squall                      the program (it needs no other file at run time)
#   share/squall/schema/            the JSON Schemas of scenario and sweep files
#   share/squall/scenarios/         the example scenarios, their policies, corpora and sweeps
#                                   (not scenarios/scale/, whose corpus is built per machine)
#   share/doc/squall/               README.md and docs/
#
# scripts/package.sh builds the `squall` target of the release preset and runs CPack, which
# makes build/release/package/squall_VERSION_ARCH.deb (prefix /usr). Its Depends are
# computed from the binary by dpkg-shlibdeps (Debian's dpkg-dev, which scripts/setup.sh
# installs). The package is tested by tests/package/ (ctest label `package`).
include(GNUInstallDirs)

# `install` and `cpack` build nothing beyond what the install rules name (the squall
# target), not every test program.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)

install(TARGETS squall RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/scenarios/schema/
        DESTINATION ${CMAKE_INSTALL_DATADIR}/squall/schema)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/scenarios/
        DESTINATION ${CMAKE_INSTALL_DATADIR}/squall/scenarios
        PATTERN schema EXCLUDE
        PATTERN scale EXCLUDE)
install(FILES ${CMAKE_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR})

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME squall)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR squall)
set(CPACK_PACKAGE_CONTACT "squall maintainers <squall@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "deterministic chaos-testing harness for the resilience layer of AI agents")
set(CPACK_PACKAGE_DESCRIPTION
    "squall simulates agent tasks against mock search, LLM and tool providers that inject\n\
timeouts, 429s, 5xx and malformed output, runs them through a resilience policy (retries,\n\
circuit breakers, fallbacks, budgets) and checks thresholds, reproducibly from a seed.\n\
Example scenarios are in /usr/share/squall/scenarios, the documentation in\n\
/usr/share/doc/squall.")
set(CPACK_PACKAGE_DIRECTORY ${CMAKE_BINARY_DIR}/package)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
include(CPack)
