#pragma once

#include <QString>
#include <QThreadPool>

#include <functional>
#include <memory>

namespace keylens::base {

// Frees what nothing refers to any more, on one thread of its own at background priority, in the order given: a
// store of a million keys takes a third of a second to free, a linter's verdicts and tables tens of milliseconds at
// ten million keys, and freed on the GUI thread they were stalls (at equal priority the thread took turns with the
// GUI thread on its core). The destructor waits for everything given.
class Disposal
{
public:
    explicit Disposal(const QString& threadName);
    ~Disposal(); // waits
    Disposal(const Disposal&) = delete;
    Disposal& operator=(const Disposal&) = delete;

    template<typename T> void dispose(std::unique_ptr<T> old)
    {
        if (old)
            post([old = old.release()] { delete old; });
    }

private:
    void post(std::function<void()> free);

    QThreadPool m_thread; // one thread: frees in order
};

} // namespace keylens::base
