#pragma once

#include <algorithm>
#include <vector>

// The middle of a bench's runs (the upper one of an even count): a run the machine slowed does not move it.
inline double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}
