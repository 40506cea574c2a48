/* The runtime's version. Generated code states the version it was generated for and refuses
 * to compile against another (its header has an #error): bump this when the interface the
 * generated code uses changes, and regenerate. */
#ifndef BF_VERSION_H
#define BF_VERSION_H

#define BF_RUNTIME_VERSION_MAJOR 1
#define BF_RUNTIME_VERSION_MINOR 2
#define BF_RUNTIME_VERSION_PATCH 0
#define BF_RUNTIME_VERSION "1.2.0"
/* major * 10000 + minor * 100 + patch */
#define BF_RUNTIME_VERSION_NUMBER 10200

#endif
