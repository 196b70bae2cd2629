/*
 * One long-lived watchdog thread per backend stops running JS when a query
 * cancel / statement_timeout / termination is pending (the signal handlers only
 * set volatile flags, which JS never looks at) or plv8.execution_timeout has
 * passed.  Arming it is a mutex and a vector push: no thread per call.
 */
#include "plv8_compat.h"

#include <chrono>
#include <condition_variable>
#include <csignal>
#include <mutex>
#include <thread>

#include <pthread.h>

using clk = std::chrono::steady_clock;

/* Heap-allocated and never destroyed: static destructors at exit() must not
 * touch a mutex or condition variable the thread still uses. */
static std::mutex *mu;
static std::condition_variable *cv;
static std::vector<v8::Isolate *> *active;	/* isolates with JS on the stack */
/*
 * What runs on top, one entry a level: false while JS runs, true while JS has
 * called into PostgreSQL (a plv8.* callback: SPI, a lock wait).  There
 * PostgreSQL handles a pending cancel itself, as the error of the statement
 * (a lock_timeout's 55P03, a statement_timeout's), which reaches JS as an
 * exception it may catch; terminating JS as well would turn that error into
 * "canceling statement due to user request".  The lock_timeout that ends each
 * of svc's waits on a worker's lock (1 s) raced the watchdog that way.
 */
static std::vector<bool> *in_postgres;
static clk::time_point started;
static bool sleeping;
static bool fired;
static int	reason;

static void
watchdog_main()
{
	int			idle_ticks = 0;

	for (;;)
	{
		{
			std::unique_lock<std::mutex> lk(*mu);

			if (active->empty())
			{
				/* idle backends should not wake up 100 times a second forever */
				if (++idle_ticks > 100)
				{
					sleeping = true;
					cv->wait(lk, [] { return !active->empty(); });
					sleeping = false;
					idle_ticks = 0;
				}
			}
			else if (!fired)
			{
				int			r = 0;

				idle_ticks = 0;
				if ((QueryCancelPending || ProcDiePending) && !in_postgres->back())
					r = 1;
				else if (plv8_execution_timeout_s > 0 &&
						 clk::now() - started > std::chrono::seconds(plv8_execution_timeout_s))
					r = 2;
				if (r)
				{
					reason = r;
					fired = true;
					for (v8::Isolate *iso : *active)
						iso->TerminateExecution();
				}
			}
		}
		std::this_thread::sleep_for(std::chrono::milliseconds(10));
	}
}

static void
watchdog_start()
{
	sigset_t	all,
				old;

	mu = new std::mutex();
	cv = new std::condition_variable();
	active = new std::vector<v8::Isolate *>();
	active->reserve(16);
	in_postgres = new std::vector<bool>();
	in_postgres->reserve(32);
	/* signals belong to the backend's main thread only */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	std::thread t(watchdog_main);

	t.detach();
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

void
watchdog_enter(v8::Isolate *isolate)
{
	if (!mu)
		watchdog_start();
	std::lock_guard<std::mutex> lk(*mu);

	if (active->empty())
	{
		started = clk::now();
		fired = false;
		reason = 0;
	}
	active->push_back(isolate);
	in_postgres->push_back(false);
	if (sleeping)
		cv->notify_one();
}

void
watchdog_leave(v8::Isolate *isolate)
{
	std::lock_guard<std::mutex> lk(*mu);

	(void) isolate;
	active->pop_back();
	in_postgres->pop_back();
}

bool
watchdog_push(bool postgres)
{
	if (!mu)
		return false;
	std::lock_guard<std::mutex> lk(*mu);

	if (active->empty())
		return false;
	in_postgres->push_back(postgres);
	return true;
}

void
watchdog_pop(void)
{
	std::lock_guard<std::mutex> lk(*mu);

	in_postgres->pop_back();
}

int
watchdog_take_reason(void)
{
	if (!mu)
		return 0;
	std::lock_guard<std::mutex> lk(*mu);

	return reason;
}
