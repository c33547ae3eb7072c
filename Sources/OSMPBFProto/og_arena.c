#include <stdlib.h>
#include <string.h>
#include "og_arena.h"

typedef struct og_chunk {
    struct og_chunk *next;
    size_t size;
    size_t used;
    /* payload follows, 16-byte aligned */
} og_chunk;

struct og_arena {
    ProtobufCAllocator allocator;
    og_chunk *head;
    size_t chunk_size;
    size_t reserved;
};

#define OG_ALIGN 16
#define OG_HEADER ((sizeof(og_chunk) + OG_ALIGN - 1) & ~(size_t)(OG_ALIGN - 1))

static og_chunk *og_chunk_new(og_arena *a, size_t min_payload) {
    size_t payload = a->chunk_size > min_payload ? a->chunk_size : min_payload;
    og_chunk *c = malloc(OG_HEADER + payload);
    if (!c) return NULL;
    c->next = NULL;
    c->size = payload;
    c->used = 0;
    a->reserved += OG_HEADER + payload;
    return c;
}

static void *og_alloc(void *data, size_t size) {
    og_arena *a = data;
    size = (size + OG_ALIGN - 1) & ~(size_t)(OG_ALIGN - 1);
    og_chunk *c = a->head;
    if (!c || c->size - c->used < size) {
        og_chunk *n = og_chunk_new(a, size);
        if (!n) return NULL;
        n->next = c;
        a->head = n;
        c = n;
    }
    void *p = (char *)c + OG_HEADER + c->used;
    c->used += size;
    return p;
}

static void og_free(void *data, void *ptr) {
    (void)data;
    (void)ptr; /* freed all at once by og_arena_reset */
}

og_arena *og_arena_create(size_t chunk_size) {
    og_arena *a = calloc(1, sizeof(og_arena));
    if (!a) return NULL;
    a->chunk_size = chunk_size ? chunk_size : (size_t)1 << 20;
    a->allocator.alloc = og_alloc;
    a->allocator.free = og_free;
    a->allocator.allocator_data = a;
    return a;
}

void og_arena_reset(og_arena *a) {
    og_chunk *c = a->head;
    if (c && !c->next) { c->used = 0; return; }
    /* The block needed several chunks: next time take one chunk big enough for all of it. */
    size_t total = 0;
    while (c) {
        og_chunk *next = c->next;
        total += c->used;
        a->reserved -= OG_HEADER + c->size;
        free(c);
        c = next;
    }
    a->head = NULL;
    size_t want = total + total / 4;
    if (want > a->chunk_size) a->chunk_size = want;
}

void og_arena_destroy(og_arena *a) {
    if (!a) return;
    og_chunk *c = a->head;
    while (c) { og_chunk *n = c->next; free(c); c = n; }
    free(a);
}

size_t og_arena_reserved(const og_arena *a) { return a->reserved; }

ProtobufCAllocator *og_arena_allocator(og_arena *a) { return &a->allocator; }

OSMPBF__BlobHeader *og_unpack_blob_header(og_arena *a, const uint8_t *data, size_t len) {
    return osmpbf__blob_header__unpack(&a->allocator, len, data);
}

OSMPBF__Blob *og_unpack_blob(og_arena *a, const uint8_t *data, size_t len) {
    return osmpbf__blob__unpack(&a->allocator, len, data);
}

OSMPBF__HeaderBlock *og_unpack_header_block(og_arena *a, const uint8_t *data, size_t len) {
    return osmpbf__header_block__unpack(&a->allocator, len, data);
}

OSMPBF__PrimitiveBlock *og_unpack_primitive_block(og_arena *a, const uint8_t *data, size_t len) {
    return osmpbf__primitive_block__unpack(&a->allocator, len, data);
}
