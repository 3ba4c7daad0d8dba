# Per-target warnings: call gpuforecast_set_warnings(<target>) instead of touching global flags.
function(gpuforecast_set_warnings target)
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow)
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
      # GCC 12 reports a false -Wrestrict on std::string concatenation (GCC bug 105329).
      target_compile_options(${target} PRIVATE -Wno-restrict)
    endif()
    if(GPUFORECAST_STRICT_WARNINGS)
      target_compile_options(${target} PRIVATE -Werror)
    endif()
  endif()
endfunction()
