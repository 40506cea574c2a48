/* binform's version, defined here and nowhere else: binform's and bfgen's --version, the shared
 * libraries' names and sonames, the .pc files and the man pages (the Makefile reads it) and the
 * generated headers' check all take it from here. Generated code states the version it was
 * generated for and refuses to compile against another (its header has an #error): bump this
 * at a release, and always when the interface the generated code uses changes; regenerate. */
#ifndef BF_VERSION_H
#define BF_VERSION_H

#define BF_RUNTIME_VERSION_MAJOR 1
#define BF_RUNTIME_VERSION_MINOR 2
#define BF_RUNTIME_VERSION_PATCH 0
#define BF_RUNTIME_VERSION "1.2.0"
/* major * 10000 + minor * 100 + patch */
#define BF_RUNTIME_VERSION_NUMBER 10200

#endif
