"""One task of the Ray tests' jobs, run as its own process: ``ray_task.py MODE`` with TF_CONFIG set.

ps: serve and join. count K N: add 1 to the ps variable K times, then (the chief) wait until N
workers' adds are in and print the total. loop: add 1 (once the chief has initialized) until the ps
fails, printing what happens. handoff: worker 1 dequeues from a queue on the ps, which worker 0 fills.
"""

import sys
import time

import numflow as tf


def main(mode, *args):
    resolver = tf.distribute.cluster_resolver.TFConfigClusterResolver()
    cluster, job, task = resolver.cluster_spec(), resolver.task_type, resolver.task_id
    server = tf.train.Server(cluster, job_name=job, task_index=task, protocol="ray")
    if job == "ps":
        print(f"ps {task} up", flush=True)
        server.join()
        print(f"ps {task} done", flush=True)
        return
    with tf.device("/job:ps/task:0"):
        v = tf.get_variable("v", [], tf.int64, initializer=tf.zeros_initializer())
        add = v.assign_add(1)
    config = tf.ConfigProto(operation_timeout_in_ms=20000)
    if mode == "handoff":
        with tf.device("/job:ps/task:0"):
            queue = tf.FIFOQueue(1, tf.int64, shared_name="handoff")
        with tf.Session(server.target, config=config) as sess:
            if task == 0:
                sess.run(queue.enqueue(tf.constant(7, tf.int64)))
                print("enqueued", flush=True)
            else:
                print("dequeuing", flush=True)
                print(f"dequeued {sess.run(queue.dequeue())}", flush=True)
        return
    if mode == "count":
        count, workers = int(args[0]), int(args[1])
        with tf.train.MonitoredTrainingSession(master=server.target, is_chief=task == 0, config=config) as sess:
            for _ in range(count):
                sess.run(add)
            if task == 0:
                expected = count * workers
                deadline = time.monotonic() + 60
                while sess.run(v) < expected and time.monotonic() < deadline:
                    time.sleep(0.05)
                print(f"total {sess.run(v)}", flush=True)
        return
    sess = tf.Session(server.target, config=config)
    if task == 0:
        sess.run(v.initializer)
    while True:
        try:
            value = sess.run(add)
        except tf.errors.FailedPreconditionError:  # before the chief's init
            time.sleep(0.05)
            continue
        except tf.errors.UnavailableError as e:
            print(f"UNAVAILABLE {time.monotonic():.3f} {e.message}", flush=True)
            time.sleep(0.2)
            continue
        except tf.errors.AbortedError as e:
            print(f"ABORTED {e.message}", flush=True)
            with tf.Session(server.target, config=config) as fresh:
                print(f"UNINITIALIZED {list(fresh.run(tf.report_uninitialized_variables()))}", flush=True)
            return
        print(f"value {value}", flush=True)
        time.sleep(0.01)


if __name__ == "__main__":
    main(*sys.argv[1:])
