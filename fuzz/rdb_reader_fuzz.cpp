// libFuzzer target for the RDB reader (src/rdb): any bytes, read as a file, must end in a result or a ParseError,
// never a crash, an overflow, undefined behaviour or unbounded memory. Built with clang's -fsanitize=fuzzer,address,
// undefined by fuzz/run (see there); seeded with the RDB fixtures.
#include "rdb/RdbReader.h"

#include <QBuffer>

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    QBuffer buffer;
    buffer.setData(reinterpret_cast<const char*>(data), qsizetype(size));
    buffer.open(QIODevice::ReadOnly);
    std::uint64_t elements = 0;
    keylens::rdb::RdbCallbacks callbacks;
    callbacks.key = [&](const keylens::rdb::RdbKey& key) { elements += key.elements + key.estimatedMemory; };
    (void)keylens::rdb::readRdb(buffer, -1, callbacks);
    return 0; // what it read is not checked here: the sanitizers and the time and memory limits are the test
}
