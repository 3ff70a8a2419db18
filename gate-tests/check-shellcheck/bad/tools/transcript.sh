# Steps taken while sizing the store, kept with what they printed.
kubectl get nodes -o wide
curl -s $METRICS_URL | grep store_objects
store_objects{kind="pods"} 80856
store_objects{kind="events"} 92177
| ENDPOINT | DB SIZE | LEADER |
| https://10.0.0.2:2379 | 2.4 GB | true |
