#include "base/NextTurn.h"

#include <utility>

namespace keylens::base {

NextTurn::NextTurn(const QString& name, QObject* parent)
    : QObject(parent)
{
    m_timer.setObjectName(name);
    m_timer.setSingleShot(true);
    m_timer.setInterval(0);
    connect(&m_timer, &QTimer::timeout, this, [this] {
        // Taken out first: the step may post the next one.
        if (const std::function<void()> step = std::exchange(m_step, {}))
            step();
    });
}

void NextTurn::post(std::function<void()> step)
{
    m_step = std::move(step);
    m_timer.start();
}

void NextTurn::post()
{
    post(m_fixedStep);
}

void NextTurn::cancel()
{
    m_timer.stop();
    m_step = {};
}

} // namespace keylens::base
