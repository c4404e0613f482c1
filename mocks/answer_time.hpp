// The deadline and cancellation rules every mock answers by (await_answer, AwaitScheduled,
// timeout_response, cancelled_response, no_answer_response) moved to
// engine/answer_time.hpp, where the engine's ProviderAttempt applies them to the answers
// providers decide at once (Provider::start). This header stays for the mocks that
// include it.
#pragma once

#include "engine/answer_time.hpp"
