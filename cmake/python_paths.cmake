# Writes _paths.py into the installed Python package flange: the directory
# of libflange relative to the package, so that the module finds the library
# it was installed with (python/flange/_lib.py), also under another prefix
# given at install time (make install PREFIX=..., cmake --install --prefix),
# under DESTDIR, and after the whole prefix is moved. Run at install time
# (install(CODE) in CMakeLists.txt) with FLANGE_PY_DIR and FLANGE_LIB_DIR,
# each relative to CMAKE_INSTALL_PREFIX or absolute.
foreach(v FLANGE_PY_DIR FLANGE_LIB_DIR)
  if(IS_ABSOLUTE "${${v}}")
    set(abs_${v} "${${v}}")
  else()
    set(abs_${v} "${CMAKE_INSTALL_PREFIX}/${${v}}")
  endif()
endforeach()
file(RELATIVE_PATH rel "${abs_FLANGE_PY_DIR}/flange" "${abs_FLANGE_LIB_DIR}")
if(rel STREQUAL "")
  set(rel ".")
endif()
set(out "$ENV{DESTDIR}${abs_FLANGE_PY_DIR}/flange/_paths.py")
message(STATUS "Installing: ${out}")
file(WRITE "${out}" "# written by make install (cmake/python_paths.cmake): where libflange is,\n"
                    "# relative to this package\nLIBDIR = \"${rel}\"\n")
list(APPEND CMAKE_INSTALL_MANIFEST_FILES "${out}")
