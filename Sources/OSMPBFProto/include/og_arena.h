#ifndef OFFGRID_ARENA_H
#define OFFGRID_ARENA_H
#include <stddef.h>
#include <stdint.h>
#include <protobuf-c/protobuf-c.h>
#include "fileformat.pb-c.h"
#include "osmformat.pb-c.h"

/* A bump allocator for protobuf-c. Unpacking a PrimitiveBlock makes thousands of small
   allocations; with an arena they cost a pointer bump, and one reset frees them all,
   so a decoding thread reuses the same memory for every block. */
typedef struct og_arena og_arena;

og_arena *og_arena_create(size_t chunk_size);
void og_arena_destroy(og_arena *arena);
/* Forgets every allocation; keeps the largest chunk for reuse. */
void og_arena_reset(og_arena *arena);
/* Bytes currently reserved from the system (for memory reports). */
size_t og_arena_reserved(const og_arena *arena);
ProtobufCAllocator *og_arena_allocator(og_arena *arena);

/* Typed unpack helpers: return NULL on malformed input. */
OSMPBF__BlobHeader *og_unpack_blob_header(og_arena *a, const uint8_t *data, size_t len);
OSMPBF__Blob *og_unpack_blob(og_arena *a, const uint8_t *data, size_t len);
OSMPBF__HeaderBlock *og_unpack_header_block(og_arena *a, const uint8_t *data, size_t len);
OSMPBF__PrimitiveBlock *og_unpack_primitive_block(og_arena *a, const uint8_t *data, size_t len);

#endif
