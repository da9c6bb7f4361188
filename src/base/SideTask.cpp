#include "base/SideTask.h"

#include <vector>

namespace keylens::base {

SideTask::SideTask(std::function<void()> work)
    : m_thread(std::move(work))
{}

SideTask::~SideTask()
{
    wait();
}

void SideTask::wait()
{
    if (m_thread.joinable())
        m_thread.join();
}

void inTwoHalves(std::size_t count, const std::function<void(std::size_t, std::size_t)>& half)
{
    const std::size_t middle = count / 2;
    SideTask second([&] { half(middle, count); });
    half(0, middle);
    second.wait();
}

void eachOnItsOwnThread(std::size_t count, const std::function<void(std::size_t)>& task)
{
    std::vector<std::thread> threads;
    threads.reserve(count);
    for (std::size_t i = 0; i < count; ++i)
        threads.emplace_back([&task, i] { task(i); });
    for (std::thread& thread : threads)
        thread.join();
}

} // namespace keylens::base
